/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test infrastructure: writes the rows of RELIABILITY.md when asked to */
/**
 * What every reliability suite shares: fast retry settings, the "no secret anywhere" check, and
 * the rows each suite records for RELIABILITY.md. Rows are written only when
 * `RELIABILITY_REPORT_DIR` is set (by `npm run report:reliability`); `npm run test:reliability`
 * writes nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { serialize, type RunResult } from '../harness/n8n';
import type { SimulatorFixture } from '../helpers/fixture';
import { FIXTURE } from '../simulator/simulator';

export const CATALOG = 'Vendors / EU 2026';
export { FAST, MAX_ATTEMPTS } from './settings';

export const problem = (status: number, detail: string) => ({ title: 'Problem', status, detail });

/** How many secrets (password, client secret, issued tokens) appear anywhere in a run. */
export function secretsIn(f: SimulatorFixture, result: RunResult): number {
	const text = serialize(result);
	return [FIXTURE.password, FIXTURE.clientSecret, ...f.sim.issuedTokens()].filter((s) =>
		text.includes(s),
	).length;
}

/** A Markdown table cell. */
export function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 150);
}

export type Section = 'matrix' | 'soak' | 'badInput' | 'awkward' | 'pressure' | 'garbled';

const rows: Partial<Record<Section, string[]>> = {};

/** Record one table row of RELIABILITY.md (kept only when a report is being generated). */
export function record(section: Section, row: string): void {
	(rows[section] ??= []).push(row);
}

afterAll(() => {
	const dir = process.env.RELIABILITY_REPORT_DIR;
	if (!dir) return;
	mkdirSync(dir, { recursive: true });
	for (const [section, lines] of Object.entries(rows)) {
		writeFileSync(join(dir, `${section}.json`), JSON.stringify(lines));
	}
});
