/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, no-console --
 * Editor UI check, never shipped: a real n8n editor in Debian's Chromium. */
/**
 * `npm run test:editor`: opens the editor of a real n8n (the e2e host) in Debian's Chromium through
 * playwright-core (never a browser download), adds the ABBYY Vantage node, switches through every
 * resource and operation, asserts which fields are shown and hidden, then adds the ABBYY Vantage
 * Trigger to a new workflow (its events, their fields, Fetch Test Event), opens the ABBYY Vantage
 * Tool of the AI Agent example (its description, the parameters the model fills, the guard of a
 * destructive operation), creates an ABBYY Vantage
 * OAuth2 API credential and connects it through the simulator's sign-in page in n8n's pop-up, and
 * saves a screenshot of each to e2e/.work/test-artifacts/editor/. Ends with `N passed, M failed`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Locator, type Page } from 'playwright-core';

import { ALLOW_AS_TOOL, TOOLS } from '../nodes/AbbyyVantage/agent/tools';
import { FIXTURE } from '../test/simulator/simulator';
import { importSmtpCredential } from './lib/approvals';
import { check, finish } from './lib/checks';
import {
	choose,
	chooseIn,
	closeList,
	listGone,
	noFloatingLayers,
	openList,
	optionsIn,
} from './lib/editorDropdowns';
import { editorScreens } from './lib/editorScreens';
import { ROOT, WORK } from './lib/n8n';
import { signIn } from './lib/server';
import { setUp } from './lib/setup';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OWNER = {
	email: 'editor@example.com',
	password: 'Editor-n8n-2026',
	firstName: 'Editor',
	lastName: 'Check',
};
// Inside a dot-folder: n8n-node build copies every other *.png in the tree into dist/.
const ARTIFACTS = join(WORK, 'test-artifacts', 'editor');
/**
 * `--screenshots` (npm run screenshots): also write README's pictures, as JPEG, which n8n-node
 * build does not copy into dist/ (it copies *.png and *.svg).
 */
const README_IMAGES = process.argv.includes('--screenshots') ? join(ROOT, 'docs', 'images') : '';

const screens = editorScreens();

/**
 * Create an ABBYY Vantage OAuth2 API credential in the editor (Credentials → Create credential),
 * pointed at the simulator, save it, click Connect my account, sign the SSO user in on the
 * simulator's sign-in page in the pop-up n8n opens, and wait until the credential shows
 * "Account connected".
 */
async function connectOAuth2InEditor(
	page: Page,
	simUrl: string,
	callback: string,
	screenshot: (name: string) => Promise<unknown>,
): Promise<void> {
	const base = new URL(callback).origin;
	await page.goto(`${base}/home/credentials/create`);
	const typeSelect = page.locator('[data-test-id="new-credential-type-select"]').first();
	await typeSelect.waitFor({ timeout: 30_000 });
	const types = await openList(page, typeSelect);
	await page.keyboard.type('ABBYY Vantage OAuth2');
	await types
		.locator('[data-test-id="new-credential-type-select-option"]')
		.filter({ hasText: 'ABBYY Vantage OAuth2 API' })
		.first()
		.click();
	await listGone(page, types);
	await page.locator('[data-test-id="new-credential-type-button"]').click();
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]');
	await dialog.waitFor({ timeout: 30_000 });
	// The OAuth Redirect URL n8n shows is the one the simulator whitelisted.
	const dialogText = await dialog.innerText();
	if (!dialogText.includes(callback))
		throw new Error(`the credential does not show the redirect URL ${callback}`);
	await selectOption(page, 'region', 'Custom');
	const fill = async (name: string, value: string) => {
		const input = dialog.locator(`[data-test-id="parameter-input-${name}"] input`).first();
		await input.fill(value);
	};
	await fill('baseUrl', simUrl);
	await fill('clientId', FIXTURE.clientId);
	await fill('clientSecret', FIXTURE.clientSecret);
	await screenshot('oauth2-credential');
	await page.locator('[data-test-id="credential-save-button"]').click();
	// n8n 2.41 labels it "Connect" (in a "Connect your account" banner); 1.x "Connect my account".
	const connectButton = dialog.getByRole('button', { name: /^(Connect|Connect my account)$/ });
	await connectButton.waitFor({ timeout: 30_000 });
	const popupOpened = page.waitForEvent('popup', { timeout: 30_000 });
	await connectButton.click();
	const popup = await popupOpened;
	await popup.locator('input[name="username"]').waitFor({ timeout: 30_000 });
	if (!popup.url().startsWith(`${simUrl}/auth2/connect/authorize?`))
		throw new Error(`the pop-up opened ${popup.url()}`);
	await popup.screenshot({ path: join(ARTIFACTS, 'oauth2-sign-in.png') });
	await popup.locator('input[name="username"]').fill(FIXTURE.ssoUsername);
	await popup.locator('input[name="password"]').fill(FIXTURE.password);
	await popup.getByRole('button', { name: 'Sign In' }).click();
	await page.locator('[data-test-id="oauth-connect-success-banner"]').waitFor({ timeout: 60_000 });
	await screenshot('oauth2-connected');
}

/** Choose `option` (its title) of the NDV's `parameter`; returns once it shows and nothing is open. */
async function selectOption(page: Page, parameter: string, option: string): Promise<void> {
	await choose(page, page.locator(`[data-test-id="parameter-input-${parameter}"]`).first(), option);
}

/** Wait until `input` holds `expected` (a value the editor fills in from Vantage), or fail. */
async function inputValueWhen(page: Page, input: Locator, expected: string): Promise<string> {
	const deadline = Date.now() + 15_000;
	let value = await input.inputValue();
	while (value !== expected && Date.now() < deadline) {
		await page.waitForTimeout(100);
		value = await input.inputValue();
	}
	return value;
}

/** Labels of the parameters the NDV shows right now. */
async function visibleLabels(page: Page): Promise<string[]> {
	const raw = await page
		.locator(
			'[data-test-id="ndv"] .parameter-item, [data-test-id="ndv"] [data-test-id="parameter-item"]',
		)
		.evaluateAll((nodes) =>
			nodes
				.filter((n) => (n as unknown as { offsetParent: unknown }).offsetParent !== null)
				.map((n) =>
					(
						n.querySelector('label, .n8n-input-label, [data-test-id="input-label"]')?.textContent ??
						''
					)
						.replace(/\s+/g, ' ')
						.trim(),
				)
				.filter(Boolean),
		);
	// A hovered label also carries the Fixed / Expression toggle; keep the title, once.
	return [...new Set(raw.map((label) => label.replace(/\s*Fixed\s*Expression.*$/, '')))];
}

/**
 * The NDV's labels as soon as `ready` holds for them (the panel re-renders after a switch; on a
 * busy machine that can take seconds), or as they are after 15 s, for the check to fail on.
 */
async function labelsWhen(page: Page, ready: (labels: string[]) => boolean): Promise<string[]> {
	const deadline = Date.now() + 15_000;
	let labels = await visibleLabels(page);
	while (!ready(labels) && Date.now() < deadline) {
		await page.waitForTimeout(100);
		labels = await visibleLabels(page);
	}
	return labels;
}

/** Labels of the fields the Columns mapper offers to map right now. */
async function mapperFields(page: Page): Promise<string[]> {
	const raw = await page
		.locator('[data-test-id="mapping-fields-container"] .parameter-item')
		.evaluateAll((nodes) =>
			nodes
				.filter((n) => (n as unknown as { offsetParent: unknown }).offsetParent !== null)
				.map((n) =>
					(n.querySelector('label, [data-test-id="input-label"]')?.textContent ?? '')
						.replace(/\s+/g, ' ')
						.trim(),
				),
		);
	return raw.map((label) => label.replace(/\s*Fixed\s*Expression.*$/, '')).filter(Boolean);
}

/** Wait until the Columns mapper shows `expected` (its fields load from Vantage). */
async function waitForMapperFields(page: Page, expected: string[]): Promise<string[]> {
	let fields: string[] = [];
	for (let tries = 0; tries < 60; tries++) {
		fields = await mapperFields(page);
		if (JSON.stringify(fields) === JSON.stringify(expected)) break;
		await page.waitForTimeout(250);
	}
	return fields;
}

/** Pick the Catalog: From List (the searchable picker) or By ID (typed). */
async function chooseCatalog(page: Page, mode: 'list' | 'id', name: string): Promise<void> {
	const locator = page.locator('[data-test-id="parameter-input-catalogId"]').first();
	if (mode === 'id') {
		await choose(page, locator.locator('[data-test-id="rlc-mode-selector"]'), 'By ID');
		await locator.locator('input').last().fill(name);
		// Leave the field so the value is committed and the mapper reloads.
		await page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]').click({
			position: { x: 5, y: 5 },
		});
		return;
	}
	await locator.locator('[data-test-id="rlc-input"]').click();
	const items = page.locator('[data-test-id="rlc-item"]');
	await items.first().waitFor({ timeout: 15_000 });
	const names = (await items.allInnerTexts()).map((text) => text.trim().split('\n')[0].trim());
	const index = names.indexOf(name);
	if (index === -1) throw new Error(`catalog ${name} not listed: [${names.join(', ')}]`);
	await items.nth(index).click();
	await noFloatingLayers(page);
}

/** The Record ID From choices (by label) and the one selected. */
async function matchingChoices(page: Page): Promise<{ options: string[]; selected: string[] }> {
	const select = page.locator('[data-test-id="matching-column-select"]').first();
	const list = await openList(page, select);
	const options = list.locator('[data-test-id^="matching-column-option-"]');
	await options.first().waitFor({ timeout: 5_000 });
	const all = await options.evaluateAll((nodes) =>
		nodes.map((n) => ({
			label: (n.textContent ?? '').trim(),
			selected: n.getAttribute('aria-selected') === 'true',
		})),
	);
	await closeList(page, select, list);
	return {
		options: all.map((o) => o.label),
		selected: all.filter((o) => o.selected).map((o) => o.label),
	};
}

async function chooseMappingMode(page: Page, mode: string): Promise<void> {
	await choose(page, page.locator('[data-test-id="mapping-mode-select"]').first(), mode);
}

/** Open the `index`-th "Add Option" list, read what it offers (photographed by `shot`), close it. */
async function optionsOffered(
	page: Page,
	shot: () => Promise<unknown>,
	index = 0,
): Promise<string[]> {
	const select = page
		.locator('[data-test-id="ndv"] [data-test-id="collection-parameter-add"]')
		.nth(index);
	const list = await openList(page, select);
	const offered = await optionsIn(list);
	await shot();
	await closeList(page, select, list);
	return offered;
}

/** `optionsOffered`, throwing when something of `wanted` is not offered. */
async function expectOptionsOffered(
	page: Page,
	wanted: string[],
	shot: () => Promise<unknown>,
): Promise<void> {
	const offered = await optionsOffered(page, shot);
	const missing = wanted.filter((o) => !offered.includes(o));
	if (missing.length)
		throw new Error(`Options missing: [${missing.join(', ')}]; offered: [${offered.join(', ')}]`);
}

/** Needs Review's rules, as its "Add Rule" list (the first collection of the panel) offers them. */
const REVIEW_RULES = [
	'Field Thresholds',
	'Flag Rule Errors',
	'Flag Uncertain Document Type',
	'Flag Values Marked for Verification',
	'Minimum Confidence (%)',
	'Required Fields',
	'Send to Second Output',
];

/** The panel shows Needs Review, and its list offers every rule and Send to Second Output. */
async function expectReviewRules(page: Page, shot: string): Promise<void> {
	const labels = await labelsWhen(page, (shown) => shown.includes('Needs Review'));
	if (!labels.includes('Needs Review')) throw new Error(`no Needs Review: [${labels.join(', ')}]`);
	const rules = await optionsOffered(
		page,
		async () => await page.screenshot({ path: join(ARTIFACTS, `${shot}.png`) }),
	);
	if (JSON.stringify(rules) !== JSON.stringify(REVIEW_RULES))
		throw new Error(`Needs Review offers: [${rules.join(', ')}]`);
}

async function main(): Promise<void> {
	if (!existsSync(CHROMIUM)) {
		console.log(
			`Chromium not found at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium).`,
		);
		finish(1);
	}
	rmSync(ARTIFACTS, { recursive: true, force: true });
	mkdirSync(ARTIFACTS, { recursive: true });
	if (README_IMAGES) mkdirSync(README_IMAGES, { recursive: true });
	const { instance, sim } = await setUp({ includeE2eWorkflows: false });
	// The review example's e-mail step needs its credential to open clean; the check sends nothing.
	await importSmtpCredential(instance, { port: 2525 });
	const port = Number(instance.env.N8N_PORT);
	const url = `http://127.0.0.1:${port}`;
	// n8n's OAuth callback on the address the browser uses (its session cookie is for 127.0.0.1),
	// whitelisted for the simulator's API client as ABBYY support would.
	const oauthCallback = `${url}/rest/oauth2-credential/callback`;
	sim.allowRedirectUri(oauthCallback);
	const server = spawn('n8n', ['start'], {
		env: { ...instance.env, N8N_LOG_LEVEL: 'warn', N8N_EDITOR_BASE_URL: url },
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-dev-shm-usage',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
		],
	});
	try {
		for (let i = 0; i < 240; i++) {
			const ready = await fetch(`${url}/healthz/readiness`).then(
				(r) => r.ok,
				() => false,
			);
			if (ready) break;
			await new Promise((r) => setTimeout(r, 500));
		}
		const auth = await signIn(url, OWNER);
		const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
		await context.addCookies([{ name: 'n8n-auth', value: auth, url }]);
		const page = await context.newPage();

		// The document and catalog-sync examples open with every node known and none flagged with
		// issues (for catalog-sync: its saved Columns mapper is accepted as it is; for invoice-review:
		// Ready and Needs Review drawn from its saved parameters, its e-mail step with the SMTP
		// credential imported below).
		for (const [id, file, nodes] of [
			['vaExInvoices1', 'invoices-to-spreadsheet', 7],
			['vaExEmail0001', 'email-attachments', 7],
			['vaExMailSheet1', 'email-invoices-to-spreadsheet', 10],
			['vaExSync00001', 'catalog-sync', 6],
			['vaExCompleted', 'transaction-completed', 4],
			['vaExReview001', 'invoice-review', 11],
		] as const) {
			await check(
				`examples/${file}.json opens with its ${nodes} nodes and no node issues`,
				async () => {
					await page.goto(`${url}/workflow/${id}`);
					const canvasNodes = page.locator('[data-test-id="canvas-node"]');
					await canvasNodes.nth(nodes - 1).waitFor({ timeout: 30_000 });
					await page.waitForTimeout(500);
					await page.screenshot({ path: join(ARTIFACTS, `example-${file}.png`) });
					const count = await canvasNodes.count();
					const warnings = await page
						.locator('[data-test-id="canvas-node-status-warning"]')
						.count();
					if (count !== nodes || warnings)
						throw new Error(`${count} nodes (expected ${nodes}), ${warnings} with issues`);
				},
			);
		}

		await check(
			'n8n 2.x imports a workflow file from the workflow menu: … → Import → From file',
			async () => {
				await page.goto(`${url}/workflow/vaExInvoices1`);
				await page.locator('[data-test-id="canvas-node"]').nth(6).waitFor({ timeout: 30_000 });
				await page.locator('[data-test-id="workflow-menu"]').click();
				await page.locator('[data-test-id="workflow-menu-item-import"]').hover();
				const fromFile = page.locator('[data-test-id="workflow-menu-item-import-from-file"]');
				await fromFile.waitFor({ timeout: 5_000 });
				const label = (await fromFile.innerText()).trim();
				await page.screenshot({ path: join(ARTIFACTS, 'import-menu.png') });
				await page.keyboard.press('Escape');
				await page.keyboard.press('Escape');
				if (label !== 'From file') throw new Error(`the menu item reads "${label}"`);
			},
		);
		await check(
			'examples/invoices-to-spreadsheet.json: the Skill picker shows the skill’s name, Invoice (Document), not its ID',
			async () => {
				await page.goto(`${url}/workflow/vaExInvoices1`);
				await page
					.locator('[data-test-id="canvas-node"]')
					.filter({ hasText: 'Extract invoice data' })
					.dblclick();
				await page.locator('[data-test-id="ndv"]').waitFor();
				// The picker shows the ID until the skill's name has come from Vantage.
				const shown = await inputValueWhen(
					page,
					page
						.locator('[data-test-id="parameter-input-skillId"]')
						.first()
						.locator('input[data-test-id="rlc-input"], [data-test-id="rlc-input"] input')
						.first(),
					'Invoice (Document)',
				);
				if (shown !== 'Invoice (Document)') throw new Error(`the picker shows "${shown}"`);
			},
		);
		/** README's pictures show no folder of this machine: fails naming what shows one. */
		const machinePath = (where: string, text: string) => {
			for (const folder of [instance.filesDir, ROOT]) {
				const at = text.indexOf(folder);
				if (at >= 0)
					throw new Error(
						`${where} shows a folder of this machine: …${text.slice(Math.max(0, at - 60), at + 60)}…`,
					);
			}
		};
		await check(
			'Execute step in the editor: Process Document outputs one item per invoice with every key README lists',
			async () => {
				sim.clearLog();
				await page
					.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]')
					.first()
					.click();
				const output = page.locator('[data-test-id="output-panel"]');
				let text = '';
				for (let tries = 0; tries < 120 && !text.includes('INV-1003'); tries++) {
					await page.waitForTimeout(250);
					text = await output.innerText();
				}
				// The schema view names every key of the first item; it renders only the rows in view,
				// so it is read while scrolling down.
				await output.locator('[data-test-id="radio-button-schema"]').click();
				await page.waitForTimeout(500);
				const seen = new Set<string>();
				const box = await output.boundingBox();
				if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
				// Until the last key shows (the view renders late on a busy machine), for 20 s at most.
				const deadline = Date.now() + 20_000;
				while (!seen.has('failedPolls') && Date.now() < deadline) {
					for (const word of (await output.innerText()).split(/\s+/)) seen.add(word);
					await page.mouse.wheel(0, 300);
					await page.waitForTimeout(150);
				}
				await output.locator('[data-test-id="radio-button-json"]').click();
				// n8n's "Node executed successfully" toast would cover the output.
				await page
					.locator('.el-notification__closeBtn')
					.first()
					.click({ timeout: 2_000 })
					.catch(() => undefined);
				// The input panel's table view: the binary view would show the files' folder, a path of
				// this machine, in README's picture.
				await page
					.locator('[data-test-id="ndv-input-panel"] [data-test-id="radio-button-table"]')
					.click({ timeout: 5_000 })
					.catch(() => undefined);
				await page.waitForTimeout(800);
				await page.screenshot({ path: join(ARTIFACTS, 'process-document-output.png') });
				machinePath('the node panel', await page.locator('[data-test-id="ndv"]').innerText());
				if (README_IMAGES) {
					// README's first picture: the whole panel (input, parameters, output).
					await page.screenshot({
						path: join(README_IMAGES, 'node-panel.jpg'),
						type: 'jpeg',
						quality: 80,
					});
				}
				const keys = [
					'transactionId',
					'documentId',
					'status',
					'fields',
					'skill',
					'classification',
					'businessRulesErrors',
					'sourceFiles',
					'pairing',
					'resultFiles',
					'uploadMethod',
					'polls',
					'failedPolls',
				];
				const missing = keys.filter((key) => !seen.has(key));
				if (!text.includes('INV-1001') || missing.length)
					throw new Error(
						`missing: [${missing.join(', ')}] in ${[...seen].join(' ').slice(0, 300)}`,
					);
				if (
					!sim.requestsTo('LaunchTransaction').length &&
					!sim.requestsTo('CreateTransaction').length
				)
					throw new Error('the simulator got no transaction');
			},
		);

		await check(
			'Execute workflow on the canvas: every node of the invoices example runs, with its item counts',
			async () => {
				await page.keyboard.press('Escape');
				await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
				await page.locator('[data-test-id="execute-workflow-button"]').first().click();
				const canvas = page.locator('[data-test-id="canvas-wrapper"], #canvas').first();
				// The last node shows n8n's success mark once the run is over (items have gone through).
				const saved = page
					.locator('[data-test-id="canvas-node"]')
					.filter({ hasText: 'Save spreadsheet' })
					.locator('[data-test-id="canvas-node-status-success"]');
				let done = false;
				for (let tries = 0; tries < 240 && !done; tries++) {
					await page.waitForTimeout(250);
					done = (await saved.count()) > 0;
				}
				if (!done) throw new Error('the workflow did not finish on the canvas');
				await page
					.locator('.el-notification__closeBtn')
					.first()
					.click({ timeout: 2_000 })
					.catch(() => undefined);
				await page.waitForTimeout(800);
				await page.screenshot({ path: join(ARTIFACTS, 'workflow-run.png') });
				machinePath('the canvas', await canvas.innerText());
				if (README_IMAGES)
					// README's second picture: the whole example after a run, which the first does not show.
					await canvas.screenshot({
						path: join(README_IMAGES, 'workflow-run.jpg'),
						type: 'jpeg',
						quality: 80,
					});
			},
		);

		// An imported example has a trigger already; add the node to it from the node creator.
		await page.goto(`${url}/workflow/vaExDocument1`);
		await page.locator('[data-test-id="node-creator-plus-button"]').click();
		await page.locator('[data-test-id="node-creator-search-bar"]').fill('ABBYY Vantage');
		const entry = page
			.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
			.filter({ hasText: 'ABBYY Vantage' })
			.first();
		await entry.waitFor();
		// One entry for the node and its trigger; n8n gives it the trigger's description.
		const entryText = (await entry.innerText()).replace(/\s+/g, ' ');
		await page.screenshot({ path: join(ARTIFACTS, '00-node-creator-search.png') });
		await check(
			'the node picker’s "ABBYY Vantage" entry describes the package, not only its trigger',
			() => {
				if (!entryText.includes('Process documents with ABBYY Vantage skills'))
					throw new Error(`the entry reads: ${entryText}`);
			},
		);
		await entry.click();
		// The actions panel lists the operations; choosing one adds the node and opens it.
		await page
			.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
			.filter({ hasText: 'Get export status' })
			.first()
			.click();
		await page.locator('[data-test-id="ndv"]').waitFor();
		await page.screenshot({ path: join(ARTIFACTS, '00-node-added.png') });
		await check(
			'the node is added from the node creator and opens with its parameters',
			async () => {
				const labels = await labelsWhen(
					page,
					(shown) => shown.includes('Resource') && shown.includes('Operation'),
				);
				if (!labels.includes('Resource') || !labels.includes('Operation'))
					throw new Error(`labels: ${labels.join(', ')}`);
			},
		);

		for (const [index, screen] of screens.entries()) {
			await check(
				`${screen.resource} → ${screen.operation}${screen.choose ? ` (${screen.slug})` : ''}`,
				async () => {
					await selectOption(page, 'resource', screen.resource);
					await selectOption(page, 'operation', screen.operation);
					if (screen.choose) {
						await selectOption(page, screen.choose.parameter, screen.choose.option);
					}
					const labels = await labelsWhen(
						page,
						(shown) =>
							screen.shown.every((label) => shown.includes(label)) &&
							!screen.hidden.some((label) => shown.includes(label)),
					);
					await page.screenshot({
						path: join(ARTIFACTS, `${String(index + 1).padStart(2, '0')}-${screen.slug}.png`),
					});
					const missing = screen.shown.filter((label) => !labels.includes(label));
					const leaked = screen.hidden.filter((label) => labels.includes(label));
					if (missing.length || leaked.length) {
						throw new Error(
							`missing: [${missing.join(', ')}]; should be hidden: [${leaked.join(', ')}]; shown: [${labels.join(', ')}]`,
						);
					}
				},
			);
		}

		await check(
			'Skill → From List loads the published skills from Vantage and picks one',
			async () => {
				await selectOption(page, 'resource', 'Skill');
				await selectOption(page, 'operation', 'Get');
				const locator = page.locator('[data-test-id="parameter-input-skillId"]').first();
				await locator.locator('[data-test-id="rlc-input"]').click();
				const items = page.locator('[data-test-id="rlc-item"]');
				// An item's text is its name, then possibly a badge or link on a line of its own.
				const itemNames = async () =>
					(await items.allInnerTexts()).map((text) => text.trim().split('\n')[0].trim());
				await items.first().waitFor({ timeout: 15_000 });
				const names = await itemNames();
				await page.screenshot({
					path: join(ARTIFACTS, `${String(screens.length + 1).padStart(2, '0')}-skill-list.png`),
				});
				const expected = [
					'Invoice (Document)',
					'Invoice Processing (Process)',
					'Receipt (Document)',
				];
				const missing = expected.filter((name) => !names.includes(name));
				if (missing.length)
					throw new Error(`missing: [${missing.join(', ')}]; listed: [${names.join(', ')}]`);
				// The search box filters the list.
				await page
					.locator('[data-test-id="rlc-search"] input, input[data-test-id="rlc-search"]')
					.first()
					.fill('invoice');
				const wanted = JSON.stringify(['Invoice (Document)', 'Invoice Processing (Process)']);
				let filtered: string[] = [];
				for (let tries = 0; tries < 40; tries++) {
					filtered = await itemNames();
					if (JSON.stringify(filtered) === wanted) break;
					await page.waitForTimeout(250);
				}
				if (JSON.stringify(filtered) !== wanted)
					throw new Error(`search "invoice" listed: [${filtered.join(', ')}]`);
				await items.filter({ hasText: 'Invoice (Document)' }).first().click();
				await noFloatingLayers(page);
				const value = await locator
					.locator('input[data-test-id="rlc-input"], [data-test-id="rlc-input"] input')
					.first()
					.inputValue();
				if (value !== 'Invoice (Document)') throw new Error(`picked: "${value}"`);
				if (!sim.requestsTo('GetAvailableSkills').length)
					throw new Error('the simulator got no skill list request');
			},
		);
		await check(
			'Transaction → Process Document: Needs Review offers its rules and Send to Second Output; the wait options read Wait Interval, Wait Interval Limit, Wait Timeout, together and in that order, beside Include Document Text; Request Options has Request Timeout; Max Retries’ hint names Retry On Fail',
			async () => {
				await selectOption(page, 'resource', 'Transaction');
				await selectOption(page, 'operation', 'Process Document');
				// The collections in order: Needs Review (0), Options (1), Request Options (2).
				await expectReviewRules(page, 'process-document-needs-review');
				const options = await optionsOffered(
					page,
					async () =>
						await page.screenshot({ path: join(ARTIFACTS, 'process-document-options.png') }),
					1,
				);
				const waits = [
					'Wait Interval (Seconds)',
					'Wait Interval Limit (Seconds)',
					'Wait Timeout (Seconds)',
				];
				const at = options.indexOf(waits[0]);
				if (at === -1 || JSON.stringify(options.slice(at, at + 3)) !== JSON.stringify(waits))
					throw new Error(`Options: [${options.join(', ')}]`);
				for (const name of [
					'Delete After Reading',
					'Concurrency',
					'Upload Method',
					'Include Document Text',
				])
					if (!options.includes(name)) throw new Error(`no ${name}: [${options.join(', ')}]`);
				if (options.some((o) => o.startsWith('Timeout') || o.endsWith('…')))
					throw new Error(`Options: [${options.join(', ')}]`);
				const request = await optionsOffered(page, async () => undefined, 2);
				const wanted = [
					'Max Retries',
					'Max Retry Delay (Seconds)',
					'Request Timeout (Seconds)',
					'Retry Delay (Seconds)',
				];
				if (JSON.stringify(request) !== JSON.stringify(wanted))
					throw new Error(`Request Options: [${request.join(', ')}]`);
				const requestOptions = await openList(
					page,
					page.locator('[data-test-id="ndv"] [data-test-id="collection-parameter-add"]').nth(2),
				);
				await chooseIn(page, requestOptions, 'Max Retries');
				await labelsWhen(page, (shown) => shown.includes('Max Retries'));
				await page.screenshot({ path: join(ARTIFACTS, 'process-document-max-retries.png') });
				const text = await page.locator('[data-test-id="ndv"]').innerText();
				if (!text.includes('Retry On Fail')) throw new Error('no hint naming Retry On Fail');
			},
		);
		await check(
			'Transaction → Get Results: Needs Review offers its rules and Send to Second Output; Options offer Include Document Text',
			async () => {
				await selectOption(page, 'operation', 'Get Results');
				await expectReviewRules(page, 'get-results-needs-review');
				const options = await optionsOffered(
					page,
					async () => await page.screenshot({ path: join(ARTIFACTS, 'get-results-options.png') }),
					1,
				);
				for (const name of ['Include Document Text', 'Include Field Details'])
					if (!options.includes(name)) throw new Error(`no ${name}: [${options.join(', ')}]`);
			},
		);
		// Add and Sync map item fields to the chosen catalog's columns (resourceMapper). Every field
		// is shown by its ID; Sync matches on Record ID From (n8n marks that field), Add matches nothing.
		let shot = screens.length + 2;
		const screenshot = async (slug: string) =>
			await page.screenshot({
				path: join(ARTIFACTS, `${String(shot++).padStart(2, '0')}-${slug}.png`),
			});
		const VENDOR_FIELDS = {
			Add: ['recordId', 'Name', 'Country'],
			Sync: ['recordId (using to match)', 'Name', 'Country'],
		};
		const PRODUCT_FIELDS = [
			'recordId (using to match)',
			'Code',
			'Name',
			'Price',
			'Stock',
			'ValidFrom',
		];
		/** How often the NDV shows `text` (a notice counts once). */
		const occurrences = async (text: string) =>
			(await page.locator('[data-test-id="ndv"]').innerText()).split(text).length - 1;
		const ID_NOTICE = 'also needs a field named recordId';
		const N8N_AUTO_NOTICE = 'named the same as the columns';
		/** Choose a catalog, wait for the mapper to show `expected`, and check it was read from Vantage. */
		const loadsColumns = async (
			mode: 'list' | 'id',
			catalog: string,
			expected: string[],
			slug: string,
		) => {
			sim.clearLog();
			await chooseCatalog(page, mode, catalog);
			const fields = await waitForMapperFields(page, expected);
			await screenshot(slug);
			if (JSON.stringify(fields) !== JSON.stringify(expected))
				throw new Error(`mapper fields: [${fields.join(', ')}]`);
			const read = sim.requestsTo('GetCatalog').map((r) => r.params.catalogId);
			if (!read.includes(catalog))
				throw new Error(`the simulator got no GetCatalog for ${catalog}: [${read.join(', ')}]`);
		};
		for (const { operation, mode } of [
			{ operation: 'Add', mode: 'list' },
			{ operation: 'Sync', mode: 'id' },
		] as const) {
			const slug = `catalog-record-${operation.toLowerCase()}`;
			const how = mode === 'list' ? 'From List' : 'By ID';
			const fields = VENDOR_FIELDS[operation];
			if (operation === 'Sync') {
				// The catalog (and its columns) carried over from Add: another catalog first.
				await check(
					`Catalog Record → Sync: Catalog By ID "Products" loads its columns (recordId, Code, Name, Price, Stock, ValidFrom); only Text and Integer ones can give the record ID`,
					async () => {
						await selectOption(page, 'resource', 'Catalog Record');
						await selectOption(page, 'operation', operation);
						await loadsColumns(mode, 'Products', PRODUCT_FIELDS, `${slug}-products`);
						const { options } = await matchingChoices(page);
						const matchable = ['recordId', 'Code', 'Name', 'Stock'];
						if (JSON.stringify(options) !== JSON.stringify(matchable))
							throw new Error(`Record ID From options: [${options.join(', ')}]`);
					},
				);
			}
			await check(
				`Catalog Record → ${operation}: Catalog ${how} "Vendors" loads its columns from Vantage: ${fields.join(', ')}`,
				async () => {
					if (operation === 'Add') {
						await selectOption(page, 'resource', 'Catalog Record');
						await selectOption(page, 'operation', operation);
					}
					await loadsColumns(mode, 'Vendors', fields, `${slug}-columns`);
					const labels = await labelsWhen(page, (shown) => shown.includes('Mapping Column Mode'));
					if (!labels.includes('Mapping Column Mode'))
						throw new Error(`labels: [${labels.join(', ')}]`);
				},
			);
			if (operation === 'Add') {
				await check(
					'Catalog Record → Add: no Record ID From and no "(using to match)" (Add matches nothing); no notice in Map Each Column Manually',
					async () => {
						const selector = await page.locator('[data-test-id="matching-column-select"]').count();
						if (selector) throw new Error('Record ID From is shown');
						const text = await page.locator('[data-test-id="ndv"]').innerText();
						if (text.includes('using to match')) throw new Error('"(using to match)" is shown');
						if (await occurrences(ID_NOTICE)) throw new Error('the recordId notice is shown');
					},
				);
			} else {
				await check(
					'Catalog Record → Sync: Record ID From offers recordId (chosen, and shown as chosen, by the label it has in the list) and the Text columns, with its hint',
					async () => {
						const { options, selected } = await matchingChoices(page);
						if (
							JSON.stringify(options) !== JSON.stringify(['recordId', 'Name', 'Country']) ||
							JSON.stringify(selected) !== JSON.stringify(['recordId'])
						)
							throw new Error(
								`options: [${options.join(', ')}]; selected: [${selected.join(', ')}]`,
							);
						const box = page.locator('[data-test-id="matching-column-select"]');
						const shown = (await box.innerText()).split('\n').map((line) => line.trim());
						// The chosen value: an input's value or placeholder, or a span, by Element Plus version.
						const input = box.locator('input').first();
						const chosen = [
							...shown,
							await input.inputValue().catch(() => ''),
							(await input.getAttribute('placeholder').catch(() => '')) ?? '',
							...(await box
								.locator('.el-select__selected-item, .el-select__placeholder')
								.allInnerTexts()),
						].map((t) => t.trim());
						if (!chosen.includes('recordId'))
							throw new Error(`Record ID From shows: [${chosen.filter(Boolean).join(' / ')}]`);
						if (!shown.some((line) => line.startsWith('Records are matched on this field')))
							throw new Error(`no hint under Record ID From: [${shown.join(' / ')}]`);
					},
				);
			}
			await check(
				`Catalog Record → ${operation}: Map Automatically hides the fields${operation === 'Add' ? ' and adds one notice below n8n’s, on the recordId field' : ', with n8n’s notice alone'}; Map Each Column Manually brings them back`,
				async () => {
					await chooseMappingMode(page, 'Map Automatically');
					const auto = await waitForMapperFields(page, []);
					await screenshot(`${slug}-auto-map`);
					if (auto.length) throw new Error(`fields in auto-map: [${auto.join(', ')}]`);
					if ((await occurrences(N8N_AUTO_NOTICE)) !== 1) throw new Error('no n8n auto-map notice');
					const ours = await occurrences(ID_NOTICE);
					if (ours !== (operation === 'Add' ? 1 : 0))
						throw new Error(`the recordId notice shows ${ours} times`);
					await chooseMappingMode(page, 'Map Each Column Manually');
					const manual = await waitForMapperFields(page, fields);
					if (JSON.stringify(manual) !== JSON.stringify(fields))
						throw new Error(`fields after switching back: [${manual.join(', ')}]`);
					if (await occurrences(ID_NOTICE))
						throw new Error('the recordId notice stays in Map Each Column Manually');
				},
			);
		}
		await check(
			'Catalog Record → Sync: Dry Run is a parameter of its own; the notice says the input is the complete content and what a missing column does; Options offer Max Share to Delete and Reindex After Sync',
			async () => {
				const labels = await labelsWhen(page, (shown) => shown.includes('Dry Run'));
				if (!labels.includes('Dry Run')) throw new Error(`no Dry Run: [${labels.join(', ')}]`);
				const notice = await page.locator('[data-test-id="ndv"]').innerText();
				if (!notice.includes('records not among them are deleted'))
					throw new Error('no notice that records not in the input are deleted');
				if (!notice.includes('A column an item lacks keeps the value the catalog holds'))
					throw new Error('no word on columns an item lacks');
				const offered = await optionsOffered(
					page,
					async () => await screenshot('catalog-record-sync-options'),
				);
				const missing = ['Max Share to Delete (%)', 'Reindex After Sync'].filter(
					(o) => !offered.includes(o),
				);
				if (missing.length || offered.includes('Dry Run'))
					throw new Error(`Options offered: [${offered.join(', ')}]`);
			},
		);

		// The trigger: the first step of a new workflow, chosen in the node creator by its event.
		const creatorItems = page.locator(
			'[data-test-id="node-creator"] [data-test-id="item-iterator-item"]',
		);
		await check(
			'ABBYY Vantage Trigger: the node creator offers its three events as triggers and opens the chosen one',
			async () => {
				await page.goto(`${url}/workflow/new`);
				await page.locator('[data-test-id="canvas-add-button"]').first().click();
				await page.locator('[data-test-id="node-creator-search-bar"]').fill('ABBYY Vantage');
				await creatorItems.filter({ hasText: 'ABBYY Vantage' }).first().click();
				const wanted = [
					'On export finished',
					'On transaction awaiting manual review',
					'On transaction completed',
				];
				// The node's panel: its triggers (“On …”), then its actions (collapsed).
				let actions: string[] = [];
				for (let tries = 0; tries < 60; tries++) {
					actions = (await creatorItems.allInnerTexts())
						.map((text) => text.trim())
						.filter((text) => text.startsWith('On '));
					if (JSON.stringify(actions) === JSON.stringify(wanted)) break;
					await page.waitForTimeout(250);
				}
				await screenshot('trigger-node-creator');
				if (JSON.stringify(actions) !== JSON.stringify(wanted))
					throw new Error(`triggers offered: [${actions.join(', ')}]`);
				await creatorItems.filter({ hasText: 'On transaction completed' }).first().click();
				await page.locator('[data-test-id="ndv"]').waitFor();
				const labels = await labelsWhen(page, (shown) => shown.includes('Event'));
				const pollTimes = page.locator('[data-test-id="fixed-collection-pollTimes"]').first();
				if (!labels.includes('Event') || !(await pollTimes.isVisible()))
					throw new Error(`no Poll Times or Event; labels: ${labels.join(', ')}`);
			},
		);
		const TRIGGER_LABELS = ['Status', 'Skill', 'Registration Parameters', 'Include Results'];
		// Poll Times shows as its item's Mode; the credential is chosen already (the only one).
		const ALWAYS = ['Credential', 'Mode', 'Event'];
		for (const event of [
			{
				name: 'Transaction Completed',
				shown: [...ALWAYS, ...TRIGGER_LABELS, 'Options'],
				hidden: [],
			},
			{
				name: 'Transaction Awaiting Manual Review',
				shown: [...ALWAYS, 'Skill', 'Options'],
				hidden: ['Status', 'Registration Parameters', 'Include Results'],
			},
			{
				name: 'Export Finished',
				shown: [...ALWAYS, 'Options'],
				hidden: TRIGGER_LABELS,
			},
		]) {
			await check(
				`ABBYY Vantage Trigger → ${event.name}: Poll Times, Event, ${event.shown.filter((label) => !ALWAYS.includes(label)).join(', ')}${event.hidden.length ? `; not ${event.hidden.join(', ')}` : ''}`,
				async () => {
					await selectOption(page, 'event', event.name);
					const labels = await labelsWhen(
						page,
						(shown) =>
							event.shown.every((label) => shown.includes(label)) &&
							!event.hidden.some((label) => shown.includes(label)),
					);
					await screenshot(`trigger-${event.name.toLowerCase().replace(/ /g, '-')}`);
					const missing = event.shown.filter((label) => !labels.includes(label));
					const leaked = event.hidden.filter((label) => labels.includes(label));
					if (missing.length || leaked.length)
						throw new Error(
							`missing: [${missing.join(', ')}]; should be hidden: [${leaked.join(', ')}]; shown: [${labels.join(', ')}]`,
						);
					if (event.name === 'Export Finished') {
						const text = await page.locator('[data-test-id="ndv"]').innerText();
						if (!text.includes('Tenant Administrator or Processing Supervisor'))
							throw new Error('no notice about the roles that see export requests');
					}
				},
			);
		}
		await check(
			'ABBYY Vantage Trigger → Transaction Completed: the filters render (Status choices, a registration parameter’s Key and Value, Look Back and Start From)',
			async () => {
				await selectOption(page, 'event', 'Transaction Completed');
				const status = page.locator('[data-test-id="parameter-input-transactionStatus"]').first();
				const list = await openList(page, status);
				const statuses = await optionsIn(list);
				await closeList(page, status, list);
				const wantedStatuses = ['Any', 'Cancelled', 'Failed', 'Processed'];
				if (JSON.stringify(statuses) !== JSON.stringify(wantedStatuses))
					throw new Error(`Status choices: [${statuses.join(', ')}]`);
				await page
					.locator(
						'[data-test-id="fixed-collection-transactionParameters"] [data-test-id="fixed-collection-add"]',
					)
					.first()
					.click();
				const labels = await labelsWhen(
					page,
					(shown) => shown.includes('Key') && shown.includes('Value'),
				);
				if (!labels.includes('Key') || !labels.includes('Value'))
					throw new Error(`no Key and Value after Add Parameter: [${labels.join(', ')}]`);
				await expectOptionsOffered(
					page,
					['Look Back (Hours)', 'Start From'],
					async () => await screenshot('trigger-transaction-completed-filters'),
				);
			},
		);
		await check(
			'ABBYY Vantage Trigger → Fetch Test Event returns the latest completed transaction from Vantage',
			async () => {
				// Remove the registration parameter added above: the event must match no filter.
				await page
					.locator(
						'[data-test-id="fixed-collection-transactionParameters"] [data-test-id="fixed-collection-delete"]',
					)
					.first()
					.click();
				const [latest] = sim.seedCompletedTransactions(1);
				sim.clearLog();
				await page.locator('[data-test-id="node-execute-button"]').first().click();
				const output = page.locator('[data-test-id="output-panel"]');
				await output.locator('[data-test-id="radio-button-json"]').click({ timeout: 30_000 });
				let text = '';
				for (let tries = 0; tries < 60 && !text.includes(latest); tries++) {
					await page.waitForTimeout(250);
					text = await output.innerText();
				}
				await screenshot('trigger-fetch-test-event');
				if (!text.includes(latest))
					throw new Error(`output has no ${latest}: ${text.slice(0, 400)}`);
				if (!sim.requestsTo('GetCompletedTransactions').length)
					throw new Error('the simulator got no GetCompletedTransactions request');
			},
		);
		// As a tool of the AI Agent (examples/invoice-agent.json): the description written for a
		// model, the parameters the model fills, the Output a model reads; and a destructive operation
		// asks for the user's own switch (nodes/AbbyyVantage/agent/properties.ts).
		await check(
			'ABBYY Vantage Tool in the AI Agent example: Tool Description is the one written for a model, Search and Limit are defined by the model, Output is offered; Delete shows Allow When Used as a Tool, off',
			async () => {
				await page.goto(`${url}/workflow/vaExAgent0001`);
				const tool = page
					.locator('[data-test-id="canvas-node"]')
					.filter({ hasText: 'Find vendor by VAT ID' });
				await tool.first().waitFor({ timeout: 30_000 });
				await tool.first().dblclick();
				await page.locator('[data-test-id="ndv"]').waitFor();
				// A parameter the model fills is labelled with its name and n8n's "Defined automatically
				// by the model" in place of an input.
				const byModelLabel = (name: string) => (label: string) =>
					label.startsWith(`${name} Defined automatically by the model`);
				const wanted = ['Tool Description', 'Resource', 'Operation', 'Catalog', 'Output'];
				const filledByModel = ['Search', 'Limit'];
				const incomplete = (shown: string[]) => [
					...wanted.filter((label) => !shown.includes(label)),
					...filledByModel
						.filter((name) => !shown.some(byModelLabel(name)))
						.map((name) => `${name} (defined by the model)`),
				];
				let labels = await labelsWhen(page, (shown) => !incomplete(shown).length);
				await page.screenshot({ path: join(ARTIFACTS, 'tool-in-agent.png') });
				const missing = incomplete(labels);
				if (missing.length)
					throw new Error(`missing: [${missing.join(', ')}]; shown: [${labels.join(', ')}]`);
				const description = await page
					.locator('[data-test-id="parameter-input-toolDescription"] textarea')
					.first()
					.inputValue();
				if (description !== TOOLS['catalogRecord.getMany'].description)
					throw new Error(`Tool Description reads "${description.slice(0, 120)}…"`);
				const byModel = await page
					.locator('[data-test-id="ndv"] [data-test-id="fromAI-override-field"]')
					.count();
				if (byModel < 2)
					throw new Error(
						`${byModel} parameters show "Defined automatically by the model" (Search and Limit should)`,
					);
				await selectOption(page, 'operation', 'Delete');
				labels = await labelsWhen(page, (shown) => shown.includes('Allow When Used as a Tool'));
				await page.screenshot({ path: join(ARTIFACTS, 'tool-delete-guard.png') });
				if (!labels.includes('Allow When Used as a Tool'))
					throw new Error(`Delete as a tool shows: [${labels.join(', ')}]`);
				const allowed = await page
					.locator(
						`[data-test-id="parameter-input-${ALLOW_AS_TOOL}"] [role="switch"], [data-test-id="parameter-input-${ALLOW_AS_TOOL}"] input`,
					)
					.first()
					.evaluate(
						(el) =>
							el.getAttribute('aria-checked') ??
							String((el as unknown as { checked: boolean }).checked),
					);
				if (allowed !== 'false') throw new Error(`Allow When Used as a Tool is ${allowed}`);
				await page.keyboard.press('Escape');
			},
		);
		await check(
			'ABBYY Vantage OAuth2 API: created in the editor, Connect my account signs in on Vantage’s page in the pop-up, the credential is connected',
			async () => {
				sim.clearLog();
				await connectOAuth2InEditor(page, sim.url, oauthCallback, screenshot);
				const counts = sim.oauthCounts();
				if (counts.codesExchanged !== 1)
					throw new Error(
						`codes exchanged: ${counts.codesExchanged} (issued ${counts.codesIssued})`,
					);
				const exchange = sim
					.requestsTo('Token')
					.find((r) => (r.body as Record<string, string>).grant_type === 'authorization_code');
				if (exchange?.status !== 200)
					throw new Error(`the code exchange answered ${exchange?.status ?? 'nothing'}`);
				// n8n 2.41 sends the client in the code exchange's form (docs/credentials.md, "What n8n sends").
				const form = exchange.body as Record<string, string>;
				if (
					form.client_id !== FIXTURE.clientId ||
					form.client_secret !== '***' ||
					exchange.headers.authorization !== undefined
				)
					throw new Error(
						`the code exchange sent the client ${JSON.stringify({ ...form, authorization: exchange.headers.authorization })}`,
					);
				// n8n offers no Test for an OAuth2 credential: saving and connecting it asked for no
				// catalogs (docs/credentials.md, step 6).
				const tested = sim.requestsTo('GetCatalogs');
				if (tested.length)
					throw new Error(
						`n8n tested the OAuth2 credential: ${tested.length} catalog list requests`,
					);
			},
		);
	} finally {
		await browser.close();
		server.kill('SIGTERM');
		await sim.stop();
	}
	console.log(`screenshots: ${ARTIFACTS}`);
	finish();
}

main().catch((error) => {
	console.error(error);
	finish(1);
});
