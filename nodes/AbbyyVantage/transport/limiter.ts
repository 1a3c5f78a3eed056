import { pause } from '../helpers/time';

/**
 * How many requests are in flight at once. Adaptive (Concurrency = Auto): starts at 4, triples
 * per window of healthy answers until the first sign of pressure, up to 16; halves on 429, 503
 * or a timeout (once per episode: answers to requests sent before the halving do not halve
 * again), then climbs back quickly to one below the level that was refused and stays there,
 * probing one higher only after many healthy windows. So under a service limit of N in flight it
 * settles at N instead of sawing between N/2 and N. A Retry-After pauses every sender, not only
 * the one that was refused. Fixed: a pinned number, never changed.
 */
export interface LimiterSettings {
	initial: number;
	max: number;
	adaptive: boolean;
}

export const AUTO_LIMITS = { initial: 4, max: 16 };

/**
 * Growth per window of healthy answers until the first sign of pressure: 4, 12, 16. Doubling
 * (4, 8, 16) kept a clean-up one round trip longer below the ceiling; an overshoot halves anyway.
 */
const SLOW_START_GROWTH = 3;

/** Healthy windows spent just below a refused level before trying that level again. */
const PROBE_WINDOWS = 16;
/** The same after a refusal with a Retry-After: a failed probe then pauses every sender. */
const PROBE_WINDOWS_AFTER_RETRY_AFTER = 64;

/**
 * A slot in flight: release it when the answer is in. `epoch` tells which limit it was sent at;
 * `position` how many of this limiter's requests were in flight with it (itself included).
 */
export interface Slot {
	release: () => void;
	epoch: number;
	position: number;
}

export class RequestLimiter {
	private limit: number;
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	private healthyInWindow = 0;
	private slowStart = true;
	private pausedUntil = 0;
	/** Bumped by every decrease: answers to requests sent before it belong to that episode. */
	private epoch = 0;
	/** The limit at which the service last signalled pressure (undefined: none yet, or outgrown). */
	private refusedAt: number | undefined;
	private windowsAtCeiling = 0;
	private probeWindows = PROBE_WINDOWS;
	/** The largest limit reached, for reports. */
	peak: number;
	/** When a request last took or gave back a slot (Date.now()). */
	lastUsedAt = Date.now();

	constructor(private readonly settings: LimiterSettings) {
		this.limit = settings.initial;
		this.peak = settings.initial;
	}

	get current(): number {
		return this.limit;
	}

	/** Whether the limit adapts to the service (Concurrency = Auto). */
	get adaptive(): boolean {
		return this.settings.adaptive;
	}

	/** Wait for a slot (and for any Retry-After pause); release it when the answer is in. */
	async acquire(signal?: AbortSignal): Promise<Slot> {
		for (;;) {
			const wait = this.pausedUntil - Date.now();
			if (wait > 0) await pause(wait, signal);
			if (this.inFlight < this.limit) break;
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
		this.inFlight++;
		this.lastUsedAt = Date.now();
		let released = false;
		return {
			epoch: this.epoch,
			position: this.inFlight,
			release: () => {
				if (released) return;
				released = true;
				this.inFlight--;
				this.lastUsedAt = Date.now();
				this.wakeUp();
			},
		};
	}

	/** A healthy answer (2xx, or a definite 4xx that says nothing about load). */
	succeeded(): void {
		if (!this.settings.adaptive || this.limit >= this.settings.max) return;
		if (++this.healthyInWindow < this.limit) return;
		this.healthyInWindow = 0;
		this.limit = Math.min(this.settings.max, this.grown());
		this.peak = Math.max(this.peak, this.limit);
		this.wakeUp();
	}

	/** The limit after a window of healthy answers. */
	private grown(): number {
		if (this.slowStart) return this.limit * SLOW_START_GROWTH;
		if (this.refusedAt === undefined) return this.limit + 1;
		// Back quickly to just below the refused level.
		const below = this.refusedAt - 1;
		if (this.limit < below) return Math.min(below, this.limit * 2);
		// There: try the refused level again only now and then; if it holds, it is outgrown.
		if (++this.windowsAtCeiling < this.probeWindows) return this.limit;
		this.windowsAtCeiling = 0;
		this.refusedAt = undefined;
		return this.limit + 1;
	}

	/**
	 * A 429, 503 or a timeout: the service is under pressure. `sent` is the refused request's slot:
	 * a refusal of a request sent before the last decrease is part of that episode, which halves
	 * once; each of its refusals narrows the refused level to the fewest requests in flight seen
	 * refused.
	 */
	throttled(retryAfterMs?: number, sent?: Pick<Slot, 'epoch' | 'position'>): void {
		const retryAfter = retryAfterMs !== undefined && retryAfterMs > 0;
		if (retryAfter) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfterMs);
		if (!this.settings.adaptive) return;
		if (sent !== undefined && sent.epoch !== this.epoch) {
			if (sent.epoch === this.epoch - 1 && this.refusedAt !== undefined) {
				this.refusedAt = Math.max(1, Math.min(this.refusedAt, sent.position));
			}
			return;
		}
		this.epoch++;
		this.slowStart = false;
		this.healthyInWindow = 0;
		this.windowsAtCeiling = 0;
		this.probeWindows = retryAfter ? PROBE_WINDOWS_AFTER_RETRY_AFTER : PROBE_WINDOWS;
		this.refusedAt = sent ? Math.min(sent.position, this.limit) : this.limit;
		this.limit = Math.max(1, Math.floor(this.limit / 2));
	}

	/** Wake as many waiters as there are free slots; each checks again before taking one. */
	private wakeUp(): void {
		let free = this.limit - this.inFlight;
		while (free-- > 0 && this.waiting.length) this.waiting.shift()?.();
	}
}

/**
 * One adaptive limiter per execution and credential, shared by every ABBYY Vantage node of that
 * execution. Limiters without a request for ten minutes are dropped, so the table never grows;
 * one in use (a long wait polls it) is kept.
 */
const shared = new Map<string, RequestLimiter>();
const IDLE_MS = 10 * 60 * 1000;

export function sharedLimiter(key: string): RequestLimiter {
	const now = Date.now();
	for (const [k, limiter] of shared) if (now - limiter.lastUsedAt > IDLE_MS) shared.delete(k);
	let limiter = shared.get(key);
	if (!limiter) {
		limiter = new RequestLimiter({ ...AUTO_LIMITS, adaptive: true });
		shared.set(key, limiter);
	}
	limiter.lastUsedAt = now;
	return limiter;
}
