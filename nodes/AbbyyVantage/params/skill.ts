import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { NodeContext } from '../helpers/errors';
import { locatorValue, optionalText, requirePathParameter } from '../helpers/validation';

/**
 * The Skill picker: from the list of published skills, or typed by ID. Skill ids are not always
 * UUIDs (e.g. `Receipt`), and API clients without the right to list skills must still type one.
 */
export const skillProperty: INodeProperties = {
	displayName: 'Skill',
	name: 'skillId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'list', value: '' },
	description: 'The published skill that processes the documents',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a skill...',
			typeOptions: { searchListMethod: 'searchSkills', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. Receipt',
		},
	],
};

/** An optional Skill filter (lists and trigger events): empty means any skill. */
export function skillFilterProperty(name: string, description: string): INodeProperties {
	return {
		displayName: 'Skill',
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description,
		modes: skillProperty.modes?.map((mode) =>
			mode.name === 'list' ? { ...mode, placeholder: 'Any skill' } : mode,
		),
	};
}

export function readSkillId(ctx: IExecuteFunctions, itemIndex: number, name = 'skillId'): string {
	const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true });
	return requirePathParameter(ctx, itemIndex, 'Skill', value);
}

/** An optional Skill filter's id, or undefined for any skill. */
export function readSkillFilter(
	ctx: NodeContext,
	itemIndex: number | undefined,
	value: unknown,
): string | undefined {
	return optionalText(ctx, itemIndex, 'Skill', locatorValue(value));
}
