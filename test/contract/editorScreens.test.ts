/**
 * The editor check (e2e/editor.ts, a real n8n's editor, minutes) opens every screen of
 * e2e/lib/editorScreens.ts. Checked here in seconds: every operation of the node has a screen,
 * and what each screen expects is what the node's description shows, so a screen that cannot pass
 * (a label mistyped, a parameter renamed) is caught before the editor runs.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { describedLabels, editorScreens, type Screen } from '../../e2e/lib/editorScreens';
import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';
import { operationTables, resourceOptions } from '../../nodes/AbbyyVantage/actions/router';

const description = new AbbyyVantage().description;
const screens = editorScreens(description);

/** Display name → value, for the node's resources and each resource's operations. */
const resourceValue = (name: string) => resourceOptions.find((r) => r.name === name)?.value;
const operationValue = (resource: string, name: string) =>
	(
		description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		)?.options as INodePropertyOptions[] | undefined
	)?.find((o) => o.name === name)?.value;

/** What of a screen the description contradicts: labels it does not show, labels it shows. */
function contradictions(screen: Screen) {
	const resource = String(resourceValue(screen.resource));
	const operation = String(operationValue(resource, screen.operation));
	const shown = describedLabels(description, resource, operation, screen.choose);
	return {
		notShown: screen.shown.filter((label) => !shown.includes(label)),
		notHidden: screen.hidden.filter((label) => shown.includes(label)),
	};
}

describe("the editor check's screens", () => {
	test('every operation of the node has a screen, and every screen opens an operation of the node', () => {
		const operations = Object.entries(operationTables).flatMap(([resource, table]) =>
			Object.values(table).map((row) => {
				const name = resourceOptions.find((r) => r.value === resource)!.name;
				return `${name} → ${row.name}`;
			}),
		);
		const opened = new Set(screens.map((s) => `${s.resource} → ${s.operation}`));
		expect(operations.filter((op) => !opened.has(op))).toEqual([]);
		expect([...opened].filter((op) => !operations.includes(op))).toEqual([]);
		const slugs = screens.map((s) => s.slug);
		expect(new Set(slugs).size).toBe(slugs.length);
	});

	test.each(screens.map((screen) => [screen.slug, screen] as const))(
		'%s expects what the description shows',
		(_, screen) => {
			expect(screen.shown.length).toBeGreaterThan(0);
			expect(contradictions(screen)).toEqual({ notShown: [], notHidden: [] });
		},
	);

	test('an operation without a written screen gets one from the description: Report → Get Many Exports', () => {
		const made = screens.find((s) => s.slug === 'report-get-many-exports');
		expect(made).toMatchObject({
			resource: 'Report',
			operation: 'Get Many Exports',
			shown: ['Return All', 'Limit', 'Filters', 'Request Options'],
		});
		expect(made?.hidden).toEqual(expect.arrayContaining(['Request ID', 'Start Date', 'Output']));
	});

	test('the check is not vacuous: a label the screen cannot see, or one it cannot miss, is named', () => {
		const screen = screens.find((s) => s.slug === 'report-download-one')!;
		expect(
			contradictions({
				...screen,
				shown: [...screen.shown, 'Start Date'],
				hidden: [...screen.hidden, 'File Index'],
			}),
		).toEqual({ notShown: ['Start Date'], notHidden: ['File Index'] });
		// Without its choice (Files: One File), File Index is not shown.
		expect(contradictions({ ...screen, choose: undefined }).notShown).toEqual(['File Index']);
	});
});
