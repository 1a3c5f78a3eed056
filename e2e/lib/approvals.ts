/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * End-to-end infrastructure, never shipped: the approver's mailbox and clicks on loopback. */
/**
 * What the human-review example (examples/catalog-agent.json) needs besides n8n 2.x: the
 * approver's mailbox (./smtp.ts) and the SMTP credential that points n8n's Send Email at it; the
 * model's script for the example's requests; and a person's click on Approve or Decline in the
 * approval e-mail n8n sends (its signed resume links, n8n-core getSignedResumeUrl: the signature
 * covers the path and query, so the link is followed on whatever address the server listens).
 */
import { join } from 'node:path';

import { answerOf, INVOICE_SCENARIO } from './agents';
import { importCredentials, RUN_DIR, type N8nInstance } from './n8n';
import type { Scenario, StepContext } from './openai';
import type { Mail, SmtpSink } from './smtp';

/** The example's SMTP credential, as its "Ask a person by e-mail" node names it. */
export const SMTP_CREDENTIAL = { id: 'vaCredSmtp001', name: 'SMTP account' };

/** The example's human review node, and the tools it gates (n8n names tools after their nodes). */
export const REVIEW_NODE = 'Ask a person by e-mail';
export const DELETE_TOOL = 'Delete_vendor_record';
export const CLEAR_TOOL = 'Clear_catalog';
export const FIND_TOOL = 'Find_vendor';

/**
 * Import the SMTP credential of the examples (catalog-agent.json, invoice-review.json) into
 * `instance`, pointed at `sink` (the editor check, which sends nothing, names a port only).
 */
export async function importSmtpCredential(
	instance: N8nInstance,
	sink: Pick<SmtpSink, 'port'>,
): Promise<void> {
	const file = join(RUN_DIR, 'smtp-credential.json');
	await importCredentials(instance, file, [
		{
			...SMTP_CREDENTIAL,
			type: 'smtp',
			data: {
				user: '',
				password: '',
				host: '127.0.0.1',
				port: sink.port,
				secure: false,
				disableStartTls: true,
			},
		},
	]);
}

/** What n8n tells a model whose gated tool call a person declined (processHitlResponses). */
export function wasDeclined(content: string): boolean {
	return /rejected the tool call|reviewed your planned tool call/.test(content);
}

const say = (content: string) => ({ content });

/**
 * A call of a gated tool: n8n offers it with the schema `{ toolParameters, hitlParameters }` (the
 * tool's own arguments, and the review step's, n8n-core createHitlToolkit) and hands the tool
 * only `toolParameters` once a person approved.
 */
const gated = (name: string, toolParameters: Record<string, unknown>) => ({
	calls: [{ name, arguments: { toolParameters, hitlParameters: {} } }],
});

/** What a tool answered, in words: its error, or undefined when it did what it was asked. */
function failure(content: string): string | undefined {
	const answer = answerOf(content);
	return typeof answer.error === 'string' ? answer.error : undefined;
}

/**
 * The model of the example: a request to delete a vendor (by its record ID) looks the vendor up,
 * then asks for the deletion; a request to clear the catalog asks for Clear. The last step says
 * what happened, from the tool's answer: done, failed, or declined by the person.
 */
export const CATALOG_ASSISTANT: Scenario = [
	({ prompt }: StepContext) => {
		if (/\bclear\b/i.test(prompt)) return gated(CLEAR_TOOL, {});
		const id = /\bV-\d+\b/.exec(prompt)?.[0] ?? '';
		return { calls: [{ name: FIND_TOOL, arguments: { search: id } }] };
	},
	({ prompt, results }: StepContext) => {
		const last = results[results.length - 1];
		if (last.name === CLEAR_TOOL) return say(outcome(last.content, 'clearing the catalog'));
		const found = (answerOf(last.content).results as Array<{ id: string }> | undefined) ?? [];
		const id = /\bV-\d+\b/.exec(prompt)?.[0] ?? '';
		if (!found.some((record) => record.id === id)) return say(`${id} is not in the catalog.`);
		return gated(DELETE_TOOL, { recordIds: id });
	},
	({ prompt, results }: StepContext) => {
		const id = /\bV-\d+\b/.exec(prompt)?.[0] ?? '';
		return say(outcome(results[results.length - 1].content, `deleting ${id}`));
	},
];

/** The model's last word on a gated change: declined by the person, failed, or done. */
export function outcome(content: string, change: string): string {
	if (wasDeclined(content)) return `A person declined ${change}: nothing was changed.`;
	const error = failure(content);
	return error ? `${change} failed: ${error}` : `Done: ${change}.`;
}

/** Whether a prompt is one of the example's requests (not an invoice of the invoice example). */
export function isCatalogRequest(prompt: string): boolean {
	return /Approved vendors catalog/.test(prompt) && /\b(delete|clear)\b/i.test(prompt);
}

/**
 * The scripted model's default scenario (the shipped examples' prompts name none) for both agent
 * examples: the catalog assistant's requests get its script, invoices the invoice example's.
 */
export function examplesScenario(): Scenario {
	const length = Math.max(CATALOG_ASSISTANT.length, INVOICE_SCENARIO.length);
	return Array.from({ length }, (_, step) => (context: StepContext) => {
		const script = isCatalogRequest(context.prompt) ? CATALOG_ASSISTANT : INVOICE_SCENARIO;
		return script[Math.min(step, script.length - 1)](context);
	});
}

/** A desktop browser's User-Agent, as a person clicking the link sends it. */
const BROWSER =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** The approval e-mail's Approve or Decline link (n8n's `approved=true` / `approved=false`). */
export function decisionLink(mail: Mail, decision: 'approve' | 'decline'): URL {
	const wanted = decision === 'approve' ? 'true' : 'false';
	const link = mail.links.find((href) => new URL(href).searchParams.get('approved') === wanted);
	if (!link) throw new Error(`no ${decision} link in "${mail.subject}": ${mail.links.join(', ')}`);
	return new URL(link);
}

/**
 * A person's click on Approve or Decline: the link followed on `serverUrl` (the n8n that resumes
 * the waiting execution). Its status and the page n8n answers with.
 */
export async function decide(
	mail: Mail,
	decision: 'approve' | 'decline',
	serverUrl: string,
): Promise<{ status: number; text: string }> {
	const link = decisionLink(mail, decision);
	// A browser's: n8n ignores a click from a client it takes for a bot or a link preview
	// (n8n-nodes-base sendAndWaitWebhook: isbot, Teams previews) and answers it with an empty page.
	const res = await fetch(new URL(`${link.pathname}${link.search}`, serverUrl), {
		headers: { 'user-agent': BROWSER },
	});
	return { status: res.status, text: await res.text() };
}
