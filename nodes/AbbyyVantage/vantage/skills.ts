import type { IDataObject } from 'n8n-workflow';

import { endpoints, type VantageClient } from '../transport';

/** Advice for requests naming a skill, by status. */
export const SKILL_HINTS = {
	403: 'The API client may not be allowed to use this skill.',
	404: 'Only published skills can be used; an unpublished skill looks the same as a missing one.',
};

/** GetAvailableSkills: the published skills (id, name, type). */
export async function listSkills(
	client: VantageClient,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const skills = await client.request<IDataObject[] | undefined>({
		...endpoints.getAvailableSkills(),
		itemIndex,
		action: 'listing the published skills',
		hints: {
			403: 'This API client may not list skills; type the skill ID instead.',
			404: SKILL_HINTS[404],
		},
	});
	return Array.isArray(skills) ? skills : [];
}

/**
 * GetSkillInfo: one published skill, with its fields, classes or included skills. `action` says
 * what for, in errors.
 */
export async function readSkill(
	client: VantageClient,
	skillId: string,
	itemIndex: number,
	action = `reading skill "${skillId}"`,
): Promise<IDataObject> {
	const skill = await client.request<IDataObject | undefined>({
		...endpoints.getSkillInfo(skillId),
		itemIndex,
		action,
		hints: SKILL_HINTS,
	});
	return skill ?? {};
}
