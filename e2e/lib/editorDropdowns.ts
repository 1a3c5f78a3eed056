/* eslint-disable @n8n/community-nodes/require-node-api-error --
 * End-to-end tooling, never shipped: a browser check fails with plain errors. */
/**
 * The editor check's (e2e/editor.ts) dropdowns, driven by the state n8n's editor shows in the DOM
 * rather than by pauses. n8n 2.41's selects are Element Plus selects: an `input[role=combobox]`
 * whose `aria-expanded` is the select's own state and whose `aria-controls` names its list, inside
 * a popper teleported over the page that opens and closes with a transition (about 300 ms, longer
 * on a loaded machine). Its resource locators open a reka-ui popover. While any of these is shown,
 * or still fading out, it takes the click meant for what lies beneath it: so every helper here
 * closes what it opened and returns only once nothing floats over the panel.
 */
import type { Locator, Page } from 'playwright-core';

/** Element Plus's poppers (selects, dropdown menus, popovers, tooltips) and reka-ui's popovers. */
const FLOATING = '.el-popper, [data-reka-popper-content-wrapper]';
/** How long a dropdown may take to open or close before the check says which one did not. */
const SETTLE_MS = 15_000;

/** The floating layers shown now (fading ones too), described for an error message. */
async function floatingLayers(page: Page): Promise<string> {
	const shown = page.locator(FLOATING).filter({ visible: true });
	const layers = await shown.evaluateAll((elements) =>
		elements.map(
			(el) => `${el.className}: ${(el.textContent ?? '').replace(/\s+/g, ' ').slice(0, 80)}`,
		),
	);
	return `[${layers.join(' | ')}]`;
}

/**
 * Wait until no dropdown, popover or tooltip is shown, the one just closed included (its closing
 * transition over: Playwright counts a layer fading out as visible), but the one holding `except`.
 * The mouse is moved off the panel first: a tooltip follows the pointer.
 */
export async function noFloatingLayers(page: Page, except?: Locator): Promise<void> {
	const viewport = page.viewportSize();
	if (viewport) await page.mouse.move(viewport.width - 2, Math.round(viewport.height / 2));
	const shown = page.locator(FLOATING).filter({ visible: true });
	try {
		await (except ? shown.filter({ hasNot: except }) : shown)
			.first()
			.waitFor({ state: 'hidden', timeout: SETTLE_MS });
	} catch {
		throw new Error(`still open after ${SETTLE_MS / 1000} s: ${await floatingLayers(page)}`);
	}
}

/** The select's combobox: `select` itself, or the one inside it. */
function comboboxOf(select: Locator): Locator {
	return select
		.locator('xpath=self::input[@role="combobox"]')
		.or(select.locator('input[role="combobox"]'))
		.first();
}

/** The value a closed select shows (its chosen option's name, or '' with a placeholder). */
export async function selectedValue(select: Locator): Promise<string> {
	return await comboboxOf(select).inputValue();
}

/**
 * Open `select` (an element holding an Element Plus select) once nothing else floats over the
 * panel, and return its list once it is open and done opening (an option clicked while the list
 * still slides in can miss). A select that opened itself (n8n focuses the credential type select
 * of a new credential, which opens it) is left open, not toggled shut.
 */
export async function openList(page: Page, select: Locator): Promise<Locator> {
	const combobox = comboboxOf(select);
	const id = await combobox.getAttribute('aria-controls');
	if (!id) throw new Error('the select names no list (aria-controls)');
	const list = page.locator(`[id="${id}"]`);
	await noFloatingLayers(page, list);
	if ((await combobox.getAttribute('aria-expanded')) !== 'true') await combobox.click();
	// Its popper, once its opening transition (Vue's *-enter-* classes) is over.
	const settled = page
		.locator('.el-popper:not([class*="-enter-"]):not([class*="-leave-"])')
		.filter({ has: list });
	try {
		await settled.waitFor({ state: 'visible', timeout: SETTLE_MS });
		if ((await combobox.getAttribute('aria-expanded')) !== 'true')
			throw new Error('the select is not expanded');
	} catch (error) {
		throw new Error(
			`the list did not open in ${SETTLE_MS / 1000} s (${(error as Error).message.split('\n')[0]}): ${await floatingLayers(page)}`,
		);
	}
	return list;
}

/** Wait until `list` is gone (closed and faded out, or re-rendered away) and nothing else floats. */
export async function listGone(page: Page, list: Locator): Promise<void> {
	await list.waitFor({ state: 'hidden', timeout: SETTLE_MS });
	await noFloatingLayers(page);
}

/** An open list's options, by their text. */
export async function optionsIn(list: Locator): Promise<string[]> {
	return (await list.getByRole('option').allInnerTexts()).map((text) => text.trim());
}

/** Close the open `list` of `select` as a user would, with Escape in the select, and wait. */
export async function closeList(page: Page, select: Locator, list: Locator): Promise<void> {
	const combobox = comboboxOf(select);
	if ((await combobox.getAttribute('aria-expanded')) === 'true') await combobox.press('Escape');
	await listGone(page, list);
}

/** Click the option titled `option` (its title exactly: its text also holds its description). */
export async function chooseIn(page: Page, list: Locator, option: string): Promise<void> {
	await list
		.getByRole('option')
		.filter({ has: page.getByText(option, { exact: true }) })
		.first()
		.click();
	await listGone(page, list);
}

/** Choose `option` of `select` and wait until the select shows it; nothing is left open. */
export async function choose(page: Page, select: Locator, option: string): Promise<void> {
	if ((await selectedValue(select)) === option) return;
	await chooseIn(page, await openList(page, select), option);
	// A new resource or operation re-renders the panel; the select is found again by its locator.
	const deadline = Date.now() + SETTLE_MS;
	let shown = await selectedValue(select);
	while (shown !== option) {
		if (Date.now() > deadline) throw new Error(`the select shows "${shown}", not "${option}"`);
		await page.waitForTimeout(50);
		shown = await selectedValue(select);
	}
}
