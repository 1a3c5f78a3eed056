import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../helpers/items';
import { endpoints, type VantageClient } from '../../transport';
import { readReturnLimit, returnAllProperties, upToLimit } from '../../params/getMany';
import { SKILL_HINTS } from '../../vantage/skills';

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
		const skills = await client.request<IDataObject[] | undefined>({
			...endpoints.getAvailableSkills(),
			itemIndex,
			action: 'listing the published skills',
			hints: {
				403: 'This API client may not list skills; type the skill ID instead.',
				404: SKILL_HINTS[404],
			},
		});
		return upToLimit(skills, limit).map((skill) => ({ json: skill }));
	});
}
