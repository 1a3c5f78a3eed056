import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { endpoints, VantageClient, type Endpoint } from '../transport';

type Listed = { id?: unknown; name?: unknown; type?: unknown };

/** Entries with a text id, filtered by name or id as the user types, sorted by name. */
async function search(
	ctx: ILoadOptionsFunctions,
	endpoint: Endpoint,
	action: string,
	filter: string | undefined,
	label: (entry: Listed & { id: string }) => string,
): Promise<INodeListSearchResult> {
	const client = new VantageClient(ctx);
	const entries = await client.request<Listed[] | undefined>({ ...endpoint, action });
	const needle = (filter ?? '').toLowerCase();
	const results: INodeListSearchItems[] = (Array.isArray(entries) ? entries : [])
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
	return await search(this, endpoints.getCatalogs(), 'listing catalogs', filter, (c) =>
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
	return await search(this, endpoints.getAvailableSkills(), 'listing skills', filter, (s) => {
		const name = typeof s.name === 'string' ? s.name : s.id;
		return typeof s.type === 'string' ? `${name} (${SKILL_TYPES[s.type] ?? s.type})` : name;
	});
}
