import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import {
	concurrencyOnlyOptions,
	ITEM_CONCURRENCY,
	readRunConcurrency,
} from '../../params/concurrency';
import { readSkillId, skillProperty } from '../../params/skill';
import { readSkill } from '../../vantage/skills';

const properties: INodeProperties[] = [skillProperty, concurrencyOnlyOptions()];

export const description = updateDisplayOptions(
	{ show: { resource: ['skill'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	const concurrency = readRunConcurrency(this, ITEM_CONCURRENCY, client);
	return await runPerItem(
		this,
		items,
		async (itemIndex) => {
			const skillId = readSkillId(this, itemIndex);
			const skill = await readSkill(client, skillId, itemIndex);
			return { json: { ...skill, id: (skill.id as string) ?? skillId } };
		},
		concurrency,
	);
}
