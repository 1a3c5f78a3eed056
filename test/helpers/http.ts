/**
 * A raw undici client for tests that talk to the simulator directly (not through the node).
 */
import { request } from 'undici';

import { FIXTURE, type VantageSimulator } from '../simulator/simulator';

export interface RawResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json: unknown;
}

export async function raw(
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
	const res = await request(url, {
		method: (options.method ?? 'GET') as 'GET',
		headers: options.headers,
		body: options.body,
	});
	const text = await res.body.text();
	let json: unknown;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.statusCode, headers: res.headers, text, json };
}

export function tokenForm(overrides: Record<string, string | undefined> = {}): string {
	const fields: Record<string, string | undefined> = {
		grant_type: 'password',
		scope: FIXTURE.scope,
		username: FIXTURE.username,
		password: FIXTURE.password,
		client_id: FIXTURE.clientId,
		client_secret: FIXTURE.clientSecret,
		...overrides,
	};
	const form = new URLSearchParams();
	for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v);
	return form.toString();
}

export async function requestToken(
	sim: VantageSimulator,
	overrides: Record<string, string | undefined> = {},
	tenantId?: string,
): Promise<RawResponse> {
	const path = tenantId
		? `/auth2/${encodeURIComponent(tenantId)}/connect/token`
		: '/auth2/connect/token';
	return await raw(sim.url + path, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: tokenForm(overrides),
	});
}

export async function token(
	sim: VantageSimulator,
	username: string = FIXTURE.username,
): Promise<string> {
	const res = await requestToken(sim, { username });
	if (res.status !== 200) throw new Error(`token request failed: ${res.text}`);
	return (res.json as { access_token: string }).access_token;
}

/** An authenticated API call; `json` is sent as application/json. */
export async function api(
	sim: VantageSimulator,
	bearer: string | null,
	method: string,
	path: string,
	json?: unknown,
	headers: Record<string, string> = {},
): Promise<RawResponse> {
	return await raw(sim.url + path, {
		method,
		headers: {
			...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
			...(json !== undefined ? { 'content-type': 'application/json' } : {}),
			...headers,
		},
		body: json === undefined ? undefined : typeof json === 'string' ? json : JSON.stringify(json),
	});
}
