import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import type { VantageClient } from '../../transport';
import { readReturnLimit, returnAllProperties, upToLimit } from '../../params/getMany';
import { listSkills } from '../../vantage/skills';

const properties: INodeProperties[] = [...returnAllProperties()];

export const description = updateDisplayOptions(
	{ show: { resource: ['skill'], operation: ['getMany'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	client: VantageClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, items, async (itemIndex) => {
		const limit = readReturnLimit(this, itemIndex);
		const skills = await listSkills(client, itemIndex);
		return upToLimit(skills, limit).map((skill) => ({ json: skill }));
	});
}
