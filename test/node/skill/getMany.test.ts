import { listSearch, runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

describe('Skill → Get Many; the Skill picker', () => {
	test('Get Many lists the published skills; Limit cuts the list', async () => {
		const all = await runNode({
			credentials: f.store,
			parameters: nodeParams('skill', 'getMany', { returnAll: true }),
		});
		const ids = all.items.map((i) => i.json.id);
		expect(ids).toEqual(
			expect.arrayContaining([FIXTURE.documentSkillId, FIXTURE.processSkillId, 'Receipt']),
		);
		expect(all.items[0].json).toEqual({
			id: expect.any(String),
			name: expect.any(String),
			type: expect.any(String),
		});
		const two = await runNode({
			credentials: f.store,
			parameters: nodeParams('skill', 'getMany', { limit: 2 }),
		});
		expect(two.items).toHaveLength(2);
	});

	// The picker reads the same list (GetAvailableSkills) as Get Many.
	test('the picker lists skills with their type and filters as the user types', async () => {
		const found = (await listSearch(f.store, 'searchSkills', 'invoice')) as {
			results: Array<{ name: string; value: string }>;
		};
		expect(found.results).toEqual([
			{ name: 'Invoice (Document)', value: FIXTURE.documentSkillId },
			{ name: 'Invoice Processing (Process)', value: FIXTURE.processSkillId },
		]);
	});
});
