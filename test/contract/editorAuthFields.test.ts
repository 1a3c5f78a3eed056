/**
 * n8n's editor hides, in every node's panel, each parameter named in the displayOptions of a
 * parameter that a credential's displayOptions name (editor-ui nodeTypesUtils: getNodeAuthFields,
 * isAuthRelatedParameter), meaning it for an Authentication choice. A credential shown per
 * operation names `operation`, whose pickers are shown per `resource`: the Resource picker then
 * vanishes from the panel (the editor check caught it). Checked here as the editor computes it.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';
import { AbbyyVantageInstantTrigger } from '../../nodes/AbbyyVantageInstantTrigger/AbbyyVantageInstantTrigger.node';
import { AbbyyVantageTrigger } from '../../nodes/AbbyyVantageTrigger/AbbyyVantageTrigger.node';

/** The parameters n8n's editor hides as related to authentication, besides Authentication itself. */
function hiddenAsAuthRelated(description: INodeTypeDescription): string[] {
	const authFields = (description.credentials ?? []).flatMap((credential) =>
		Object.keys(credential.displayOptions?.show ?? {}).flatMap((name) =>
			description.properties.filter((property) => property.name === name),
		),
	);
	return [
		...new Set(
			description.properties
				.map((property) => property.name)
				.filter((name) => authFields.some((field) => name in (field.displayOptions?.show ?? {}))),
		),
	];
}

describe('no parameter vanishes from the editor for a credential’s sake', () => {
	test.each([
		['ABBYY Vantage', new AbbyyVantage().description],
		['ABBYY Vantage Trigger', new AbbyyVantageTrigger().description],
		['ABBYY Vantage Instant Trigger', new AbbyyVantageInstantTrigger().description],
	])('%s', (_name, description) => {
		expect(hiddenAsAuthRelated(description)).toEqual([]);
	});

	test('the check sees what hid the Resource picker: a credential shown per operation', () => {
		const description = new AbbyyVantage().description;
		const perOperation: INodeTypeDescription = {
			...description,
			credentials: [
				...(description.credentials ?? []),
				{ name: 'x', displayOptions: { show: { operation: ['processDocument'] } } },
			],
		};
		expect(hiddenAsAuthRelated(perOperation)).toEqual(['resource']);
	});
});
