import type { INode, INodeParameters } from 'n8n-workflow';

import { perItemReader } from '../../../nodes/AbbyyVantage/helpers/parameters';

const ctx = (parameters: INodeParameters) => ({ getNode: () => ({ parameters }) as INode });

describe('perItemReader', () => {
	test('a parameter without an expression is read once for all items', () => {
		let reads = 0;
		const read = perItemReader(
			ctx({ catalogId: { __rl: true, mode: 'list', value: 'Vendors' } }),
			'catalogId',
			(i) => `read ${++reads} at item ${i}`,
		);
		expect([0, 1, 2].map(read)).toEqual([
			'read 1 at item 0',
			'read 1 at item 0',
			'read 1 at item 0',
		]);
	});

	test('an expression anywhere in it, nested ones included, reads every item', () => {
		const read = perItemReader(
			ctx({ columns: { mappingMode: 'defineBelow', value: { name: '={{ $json.name }}' } } }),
			'columns.value',
			(i) => i,
		);
		expect([0, 1, 2].map(read)).toEqual([0, 1, 2]);
		const locator = perItemReader(
			ctx({ catalogId: { __rl: true, mode: 'id', value: '={{ $json.catalog }}' } }),
			'catalogId',
			(i) => i,
		);
		expect([0, 1].map(locator)).toEqual([0, 1]);
	});

	test('a parameter left at its default (absent) is read once; a failed read is not remembered', () => {
		let reads = 0;
		const read = perItemReader(ctx({}), 'columns.matchingColumns', () => ++reads);
		expect([read(0), read(1)]).toEqual([1, 1]);
		const failing = perItemReader(ctx({}), 'catalogId', (i) => {
			throw new Error(`item ${i}`);
		});
		expect(() => failing(0)).toThrow('item 0');
		expect(() => failing(1)).toThrow('item 1');
	});
});
