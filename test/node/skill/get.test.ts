import { runNode } from '../../harness/n8n';
import { useSimulator } from '../../helpers/fixture';
import { nodeParams, rl } from '../../helpers/params';
import { FIXTURE } from '../../simulator/simulator';
import { concurrencyOf } from '../transaction/flow';

const f = useSimulator();

describe('Skill → Get', () => {
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

	test('skills are read several at a time under Concurrency Auto, one at a time when pinned to 1', async () => {
		const skills = [FIXTURE.documentSkillId, FIXTURE.processSkillId, FIXTURE.receiptSkillId];
		const items = Array.from({ length: 12 }, (_, i) => ({ skill: skills[i % 3] }));
		const { auto, pinned, runs } = await concurrencyOf(
			f,
			'GetSkillInfo',
			(options) => nodeParams('skill', 'get', { skillId: rl('={{ $json.skill }}'), options }),
			items,
		);
		expect(auto).toBeGreaterThan(1);
		expect(pinned).toBe(1);
		for (const run of runs)
			expect(run.items.map((i) => i.json.id)).toEqual(items.map((i) => i.skill));
	});
});
