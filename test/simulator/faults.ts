/** Programmable faults: scripted per route, or drawn at random from a seeded generator. */
import { AUTH_ROUTES, type RouteId } from './http';

export type Fault =
	/** Answer with this status instead of handling the request (429, 5xx, 401, 403, 404, 400 …). */
	| { kind: 'status'; status: number; retryAfter?: string; body?: unknown }
	/**
	 * Destroy the connection; `after: true` handles the request first (the response is lost);
	 * `afterBytes` handles it and sends that many bytes of a streamed body first (a download that
	 * breaks off midway).
	 */
	| { kind: 'reset'; after?: boolean; afterBytes?: number }
	/** Wait, then handle the request normally. */
	| { kind: 'delay'; ms: number }
	/** Handle the request, then send a truncated JSON body with status 200. */
	| { kind: 'malformedJson' }
	/** A streamed body that stops after `afterBytes` and sends nothing more, the connection open. */
	| { kind: 'stall'; afterBytes: number }
	/**
	 * A streamed body as a proxy or gateway breaks it, answered 200 and ended cleanly: the first
	 * `afterLines` lines (CRLF-ended) or `afterBytes` bytes of the real body, then `text` (UTF-8)
	 * or `base64` bytes instead of the rest: an HTML error page, NUL bytes, nothing (a cut body).
	 */
	| { kind: 'garble'; afterLines?: number; afterBytes?: number; text?: string; base64?: string };

export interface FaultRule {
	route: RouteId | '*';
	fault: Fault;
	/** How many matching requests get the fault; `Infinity` (or 'always' over HTTP) for all. */
	times: number;
	hits: number;
	/** Matching requests still to let through untouched before the fault starts. */
	skip: number;
}

export class FaultTable {
	private rules: FaultRule[] = [];
	private random: { rate: number; faults: Fault[]; next: () => number } | null = null;

	inject(route: RouteId | '*', fault: Fault, times: number, skip = 0): void {
		this.rules.push({ route, fault, times, hits: 0, skip });
	}

	clear(): void {
		this.rules = [];
		this.random = null;
	}

	injectRandom(rate: number, faults: Fault[], seed: number): void {
		this.random = { rate, faults, next: mulberry32(seed) };
	}

	/**
	 * The fault for this request, if any. Scripted rules come first; `'*'` and random faults spare
	 * the token endpoint, so a fault plan aims at the API calls and sign-in still works.
	 */
	take(route: RouteId | null): Fault | null {
		const rule = this.rules.find(
			(f) =>
				(f.route === '*' ? route === null || !AUTH_ROUTES.has(route) : f.route === route) &&
				f.hits < f.times,
		);
		if (rule) {
			if (rule.skip > 0) {
				rule.skip--;
				return null;
			}
			rule.hits++;
			return rule.fault;
		}
		const random = this.random;
		if (random && route !== null && !AUTH_ROUTES.has(route) && random.next() < random.rate) {
			return random.faults[Math.floor(random.next() * random.faults.length)];
		}
		return null;
	}
}

/** A small seeded PRNG (mulberry32): the same seed gives the same fault sequence. */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
