import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';

const f = useSimulator();

describe('Catalog → Clear', () => {
	test('Clear needs the confirmation; then it removes every record and says how many', async () => {
		f.sim.seedRecords('Vendors', ['a', 'b', 'c']);
		const refused = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'clear', { catalogId: rl('Vendors') }),
		});
		expect(refused.error?.message).toBe(
			'Clear of catalog "Vendors" was not confirmed: turn on Delete All Records [item 0]',
		);
		expect(f.sim.requests).toHaveLength(0);
		const cleared = await runNode({
			credentials: f.store,
			parameters: nodeParams('catalog', 'clear', { catalogId: rl('Vendors'), confirm: true }),
		});
		expect(cleared.items[0].json).toEqual({
			catalogId: 'Vendors',
			cleared: true,
			recordsRemoved: 3,
		});
		expect(f.sim.recordIds('Vendors')).toEqual([]);
	});

	test('an item left unconfirmed stops the run before any catalog is cleared', async () => {
		f.sim.addCatalog('A');
		f.sim.seedRecords('A', ['a']);
		const result = await runNode({
			credentials: f.store,
			items: [{ confirm: true }, { confirm: false }],
			parameters: nodeParams('catalog', 'clear', {
				catalogId: rl('A'),
				confirm: '={{ $json.confirm }}',
			}),
		});
		expect(result.error?.message).toBe(
			'Clear of catalog "A" was not confirmed: turn on Delete All Records [item 1]',
		);
		expect(f.sim.requests).toHaveLength(0);
		expect(f.sim.recordIds('A')).toEqual(['a']);
	});

	test('when Vantage refuses item 2, the error names the catalogs items 0 and 1 cleared', async () => {
		for (const name of ['A', 'B', 'C']) f.sim.addCatalog(name);
		f.sim.seedRecords('A', ['a1', 'a2']);
		f.sim.seedRecords('B', ['b1']);
		f.sim.seedRecords('C', ['c1']);
		// The third ClearCatalog gets a 400 (not retried: Vantage said no).
		f.sim.injectFault('ClearCatalog', { kind: 'delay', ms: 0 }, 2);
		f.sim.injectFault('ClearCatalog', { kind: 'status', status: 400 });
		const result = await runNode({
			credentials: f.store,
			items: [{ catalog: 'A' }, { catalog: 'B' }, { catalog: 'C' }],
			parameters: nodeParams('catalog', 'clear', {
				catalogId: rl('={{ $json.catalog }}'),
				confirm: true,
			}),
		});
		expect(result.error?.message).toMatch(/\[item 2\]$/);
		expect(String((result.error as { description?: string }).description)).toContain(
			'Before the run stopped, other items had created: clear of catalog "A" (2 records removed) (item 0), clear of catalog "B" (1 record removed) (item 1).',
		);
		expect([f.sim.recordIds('A'), f.sim.recordIds('B'), f.sim.recordIds('C')]).toEqual([
			[],
			[],
			['c1'],
		]);
	});
});
