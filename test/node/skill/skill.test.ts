import { listSearch, runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';

const f = useSimulator();

describe('Skill → Get Many, Get; the Skill picker', () => {
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

	test('Get returns a Document skill with its field tree, by an ID that is not a UUID too', async () => {
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('skill', 'get', { skillId: rl(FIXTURE.documentSkillId) }),
		});
		const fields = result.items[0].json.fields as Array<{ name: string; isRepeatable?: boolean }>;
		expect(fields.find((field) => field.name === 'LineItems')).toMatchObject({
			isRepeatable: true,
		});
		const receipt = await runNode({
			credentials: f.store,
			parameters: nodeParams('skill', 'get', { skillId: rl('Receipt') }),
		});
		expect(receipt.items[0].json).toMatchObject({ id: 'Receipt', type: 'Document' });
	});

	test('an unpublished skill is a readable 404 with advice', async () => {
		f.sim.unpublishSkill('Receipt');
		const result = await runNode({
			credentials: f.store,
			parameters: nodeParams('skill', 'get', { skillId: rl('Receipt') }),
		});
		expect(result.error?.message).toMatch(/^ABBYY Vantage could not find it/);
		expect((result.error as { description?: string }).description).toMatch(/Only published skills/);
	});

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
