/**
 * Every operation of the node has its rows in the fault matrix (test/reliability/faultMatrix.test.ts,
 * the slow tier): checked here, in the unit tier, without running the matrix. The matrix is walked
 * from the node's resource table (actions/router.ts `resources`), so these checks read the same
 * table the node routes by.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { AbbyyVantage } from '../../nodes/AbbyyVantage/AbbyyVantage.node';
import { type SimulatorFixture, useSimulator } from '../helpers/fixture';
import {
	coverageGaps,
	matrixOperations,
	matrixRows,
	type MatrixRow,
	nodeOperations,
	walkMatrix,
} from '../reliability/operations';
import { CATALOG } from '../reliability/shared';

/** Rows are only built here, not prepared: their `prepare` reads the fixture when it runs. */
const notStarted = {} as SimulatorFixture;

describe('the fault matrix has rows for every operation of the node', () => {
	test("the walk sees every operation of the node's Operation pickers, each once", () => {
		const picked = new AbbyyVantage().description.properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) =>
				(p.options as INodePropertyOptions[]).map(
					(option) => `${String(p.displayOptions?.show?.resource?.[0])}.${String(option.value)}`,
				),
			);
		const walked = nodeOperations().map(({ key }) => key);
		expect(new Set(walked).size).toBe(walked.length);
		expect([...walked].sort()).toEqual([...picked].sort());
	});

	test('every (resource, operation) has a row, and every row is filed under one', () => {
		expect(coverageGaps(matrixRows(notStarted))).toEqual({ missing: [], extra: [] });
	});

	test("the matrix is the table's rows: every operation in it, each row named once", () => {
		const operations = matrixOperations(notStarted);
		const covered = new Set(operations.map((op) => `${op.resource}.${op.operation}`));
		expect([...covered].sort()).toEqual(
			nodeOperations()
				.map(({ key }) => key)
				.sort(),
		);
		// Row names name the matrix's tests.
		const names = operations.map((op) => op.name);
		expect(new Set(names).size).toBe(names.length);
	});

	test('an operation without rows, or rows for no operation of the node, stop the matrix', () => {
		const rows: Record<string, MatrixRow[]> = { ...matrixRows(notStarted) };
		rows['skill.rename'] = rows['skill.get'];
		delete rows['skill.get'];
		expect(coverageGaps(rows)).toEqual({ missing: ['skill.get'], extra: ['skill.rename'] });
		expect(() => walkMatrix(rows)).toThrow(
			"Fault matrix rows do not match the node's operations: missing skill.get; not operations of the node: skill.rename",
		);
	});

	test('a row filed under another operation fails when it is prepared', async () => {
		const rows = matrixRows(notStarted);
		const swapped = walkMatrix({ ...rows, 'skill.get': rows['skill.getMany'] });
		const filed = swapped.find((op) => op.resource === 'skill' && op.operation === 'get');
		await expect(filed?.prepare()).rejects.toThrow(
			'The row "Skill Get Many" is filed under skill.get but runs skill.getMany',
		);
	});
});

describe('each matrix row runs the operation it is filed under', () => {
	const env = useSimulator((sim) => sim.addCatalog(CATALOG));
	const filed = Object.entries(matrixRows(env)).flatMap(([key, rows]) =>
		rows.map((row) => [row.name, key, row] as const),
	);
	test.each(filed)('%s runs %s', async (_, key, row) => {
		const { parameters } = await row.prepare();
		expect(`${String(parameters.resource)}.${String(parameters.operation)}`).toBe(key);
	});
});
