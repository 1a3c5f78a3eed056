/**
 * The record table behind GetRecords: a page costs O(page · log n) whatever the catalog's size and
 * however many records were deleted, checked by counting the work done, not by timing.
 */
import { RecordTable } from './catalogs/table';

const fill = (table: RecordTable, from: number, to: number) => {
	for (let i = from; i < to; i++) table.put(`r${i}`, { Name: [String(i)] });
};
const workOf = (table: RecordTable, run: () => void) => {
	const before = table.work;
	run();
	return table.work - before;
};

describe('RecordTable', () => {
	test('a page of 1000 from a 200 000-record table visits about 1000 rows, wherever it starts', () => {
		const table = new RecordTable();
		fill(table, 0, 200_000);
		for (const offset of [0, 100_000, 199_000]) {
			let ids: string[] = [];
			const work = workOf(table, () => (ids = table.page(offset, 1000).map((r) => r.id)));
			expect(ids[0]).toBe(`r${offset}`);
			expect(ids).toHaveLength(1000);
			// 1000 rows plus one tree descent (log2 of the capacity, about 18 steps).
			expect(work).toBeLessThanOrEqual(1000 + 20);
		}
		expect(workOf(table, () => table.page(200_000, 1000))).toBe(0);
	});

	test('after deleting every other record a page still costs O(page · log n)', () => {
		const table = new RecordTable();
		fill(table, 0, 200_000);
		for (let i = 0; i < 200_000; i += 2) table.delete(`r${i}`);
		expect(table.size).toBe(100_000);
		let ids: string[] = [];
		const work = workOf(table, () => (ids = table.page(40_000, 1000).map((r) => r.id)));
		expect(ids.slice(0, 3)).toEqual(['r80001', 'r80003', 'r80005']);
		// One empty slot stepped over per row, one descent at the start.
		expect(work).toBeLessThanOrEqual(2000 + 20);
	});

	test('a page across a long run of deleted records jumps it', () => {
		const table = new RecordTable();
		fill(table, 0, 200_000);
		for (let i = 100_000; i < 190_000; i++) table.delete(`r${i}`);
		let ids: string[] = [];
		const work = workOf(table, () => (ids = table.page(99_500, 1000).map((r) => r.id)));
		expect(ids[499]).toBe('r99999');
		expect(ids[500]).toBe('r190000');
		// 1000 rows, 16 empty slots tried one by one, two tree descents.
		expect(work).toBeLessThanOrEqual(1000 + 16 + 2 * 20);
	});

	test('1 000 000 records deleted in batches of 5000 stay cheap and correct', () => {
		const table = new RecordTable();
		fill(table, 0, 1_000_000);
		for (let batch = 0; batch < 200; batch++) {
			for (let i = batch * 5000; i < (batch + 1) * 5000; i++) table.delete(`r${i}`);
			if (batch % 50 === 0) {
				const next = (batch + 1) * 5000;
				expect(table.page(0, 2).map((r) => r.id)).toEqual([`r${next}`, `r${next + 1}`]);
			}
		}
		expect(table.size).toBe(0);
		expect(table.page(0, 10)).toEqual([]);
		fill(table, 0, 3);
		expect(table.ids()).toEqual(['r0', 'r1', 'r2']);
	});

	test('agrees with a plain array under random puts, replacements, deletes, clears and pages', () => {
		let seed = 42;
		const random = (n: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % n;
		};
		const table = new RecordTable();
		let model: Array<{ id: string; fields: Record<string, string[]> }> = [];
		for (let step = 0; step < 20_000; step++) {
			const op = random(100);
			const id = `r${random(3000)}`;
			if (op < 55) {
				const fields = { Name: [`v${step}`] };
				const existing = model.find((r) => r.id === id);
				if (existing) existing.fields = fields;
				else model.push({ id, fields });
				table.put(id, fields);
			} else if (op < 97) {
				expect(table.delete(id)).toBe(model.some((r) => r.id === id));
				model = model.filter((r) => r.id !== id);
			} else if (op < 98) {
				table.clear();
				model = [];
			} else {
				const offset = random(model.length + 5);
				const limit = 1 + random(200);
				expect(table.page(offset, limit)).toEqual(model.slice(offset, offset + limit));
			}
			expect(table.size).toBe(model.length);
		}
		expect([...table]).toEqual(model);
		expect(table.ids()).toEqual(model.map((r) => r.id));
		expect(table.get(model[0].id)).toEqual(model[0]);
	});
});
