/**
 * Skills area: GetAvailableSkills and GetSkillInfo (Processing v1). Skills can be defined with a
 * field tree, unpublished (then listed no more and 404 everywhere), and listing can be denied
 * (403, as for API clients without the right to list skills).
 */
import type { z } from 'zod/v4';

import { notFound, problem, respond, route, type RequestContext, type Route } from '../http';
import * as S from '../schemas';
import { classId, fromListItem, type FieldDefinition, type SkillDefinition } from '../skills';

const API = '/api/publicapi/v1';
export const SKILL_NOT_FOUND = 'Skill with specified skillId not found or not published';

interface SkillRecord {
	definition: SkillDefinition;
	published: boolean;
}

export class SkillsArea {
	readonly routes: Route[];
	/** Keyed by lower-case id: path ids match case-insensitively. */
	private readonly skills = new Map<string, SkillRecord>();
	private listingDenied = false;

	constructor() {
		this.routes = [
			route('GetAvailableSkills', 'GET', `${API}/skills`, () => {
				if (this.listingDenied) {
					throw problem(403, 'Forbidden', 'You do not have permission to list skills.');
				}
				const items = [...this.skills.values()]
					.filter((s) => s.published)
					.map(({ definition: d }) => ({
						id: d.id,
						name: d.name,
						...(d.type ? { type: d.type } : {}),
					}));
				return respond(200, S.SkillListItemDto.array(), items);
			}),
			route('GetSkillInfo', 'GET', `${API}/skills/:skillId`, (c) => this.info(c)),
		];
	}

	// ------------------------------------------------------------ controls

	define(definition: SkillDefinition): void {
		this.skills.set(definition.id.toLowerCase(), { definition, published: true });
	}

	addListItem(item: z.infer<typeof S.SkillListItemDto>): void {
		this.define(fromListItem(item));
	}

	setPublished(id: string, published: boolean): void {
		const record = this.skills.get(id.toLowerCase());
		if (!record) throw new Error(`no skill ${id}`);
		record.published = published;
	}

	denyListing(deny: boolean): void {
		this.listingDenied = deny;
	}

	// ------------------------------------------------------------ lookups

	/** A published skill, or the vendor's 404. */
	published(id: string): SkillDefinition {
		const record = this.skills.get(id.toLowerCase());
		if (!record?.published) throw notFound(SKILL_NOT_FOUND);
		return record.definition;
	}

	/** Any skill, published or not (transactions keep working when their skill is unpublished). */
	get(id: string): SkillDefinition | undefined {
		return this.skills.get(id.toLowerCase())?.definition;
	}

	/** The Document skill that extracts a document of `skill` (itself, or a Process skill's first). */
	extractor(skill: SkillDefinition): SkillDefinition | null {
		if (skill.type === 'Document' || skill.type === 'Assembling') return skill;
		if (skill.type !== 'Process') return null;
		for (const id of skill.skills ?? []) {
			const inner = this.get(id);
			if (inner?.type === 'Document') return inner;
		}
		return null;
	}

	/** The classes a document of `skill` can get: its own, or a Process skill's classifier's. */
	classes(skill: SkillDefinition): string[] | null {
		if (skill.type === 'Classification') return skill.classes ?? [];
		if (skill.type !== 'Process') return null;
		for (const id of skill.skills ?? []) {
			const inner = this.get(id);
			if (inner?.type === 'Classification') return inner.classes ?? [];
		}
		return null;
	}

	// ------------------------------------------------------------ routes

	private info(ctx: RequestContext) {
		const skill = this.published(ctx.params.skillId);
		return respond(200, S.SkillDto, {
			id: skill.id,
			name: skill.name,
			...(skill.type ? { type: skill.type } : {}),
			fields: skill.fields ? skill.fields.map(fieldDto) : null,
			classes: skill.classes ? skill.classes.map((name) => ({ id: classId(name), name })) : null,
			skills: skill.skills ? skill.skills.map((id) => ({ id })) : null,
		});
	}
}

function fieldDto(field: FieldDefinition): S.FieldDtoValue {
	const type = field.type ?? 'Text';
	return {
		name: field.name,
		type,
		...(type === 'Text' ? { textFormat: field.textFormat ?? 'Text' } : {}),
		isRepeatable: field.isRepeatable ?? false,
		children: (field.children ?? []).map(fieldDto),
	};
}
