import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { VantageClient } from '../transport';
import { listCatalogs } from '../vantage/catalogs';
import { listSkills } from '../vantage/skills';

type Listed = { id?: unknown; name?: unknown; type?: unknown };

/** Entries with a text id, filtered by name or id as the user types, sorted by name. */
function search(
	entries: Listed[],
	filter: string | undefined,
	label: (entry: Listed & { id: string }) => string,
): INodeListSearchResult {
	const needle = (filter ?? '').toLowerCase();
	const results: INodeListSearchItems[] = entries
		.filter((entry): entry is Listed & { id: string } => typeof entry.id === 'string')
		.map((entry) => ({ name: label(entry), value: entry.id }))
		.filter(
			(entry) =>
				!needle ||
				entry.name.toLowerCase().includes(needle) ||
				String(entry.value).toLowerCase().includes(needle),
		)
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/** Catalogs for the Catalog picker. */
export async function searchCatalogs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return search(await listCatalogs(new VantageClient(this)), filter, (c) =>
		typeof c.name === 'string' ? c.name : c.id,
	);
}

/** SkillType as people write it. */
const SKILL_TYPES: Record<string, string> = { Ocr: 'OCR' };

/** Published skills for the Skill picker, with their type. */
export async function searchSkills(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return search(await listSkills(new VantageClient(this)), filter, (s) => {
		const name = typeof s.name === 'string' ? s.name : s.id;
		return typeof s.type === 'string' ? `${name} (${SKILL_TYPES[s.type] ?? s.type})` : name;
	});
}
