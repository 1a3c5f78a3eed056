import { AbbyyVantage } from '../../../nodes/AbbyyVantage/AbbyyVantage.node';
import { operations } from '../../../nodes/AbbyyVantage/actions/report/Report.resource';

describe('Report: the notice above the parameters', () => {
	const notices = new AbbyyVantage().description.properties.filter(
		(p) => p.type === 'notice' && p.displayOptions?.show?.resource?.includes('report'),
	);
	const shownFor = (operation: string) =>
		notices.filter((p) => p.displayOptions?.show?.operation?.includes(operation));

	test.each(Object.keys(operations))('%s shows exactly one, naming the roles', (operation) => {
		const shown = shownFor(operation);
		expect(shown).toHaveLength(1);
		expect(shown[0].displayName).toMatch(/Tenant Administrators and Processing Supervisors/);
	});

	test('only the export operations speak of export result files', () => {
		for (const operation of Object.keys(operations)) {
			expect(/Export result files/.test(shownFor(operation)[0].displayName)).toBe(
				/Export/.test(operation),
			);
		}
	});
});
