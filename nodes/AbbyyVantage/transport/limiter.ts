import { pause } from '../helpers/time';

/**
 * How many requests are in flight at once. Adaptive (Concurrency = Auto): starts at 4, doubles
 * per window of healthy answers until the first sign of pressure, then grows by one per window,
 * up to 16; halves on 429, 503 or a timeout; a Retry-After pauses every sender, not only the
 * one that was refused. Fixed: a pinned number, never changed.
 */
export interface LimiterSettings {
	initial: number;
	max: number;
	adaptive: boolean;
}

export const AUTO_LIMITS = { initial: 4, max: 16 };

export class RequestLimiter {
	private limit: number;
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	private healthyInWindow = 0;
	private slowStart = true;
	private pausedUntil = 0;
	/** The largest limit reached, for reports. */
	peak: number;

	constructor(private readonly settings: LimiterSettings) {
		this.limit = settings.initial;
		this.peak = settings.initial;
	}

	get current(): number {
		return this.limit;
	}

	/** Wait for a slot (and for any Retry-After pause); call the returned function when done. */
	async acquire(signal?: AbortSignal): Promise<() => void> {
		for (;;) {
			const wait = this.pausedUntil - Date.now();
			if (wait > 0) await pause(wait, signal);
			if (this.inFlight < this.limit) break;
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
		this.inFlight++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.inFlight--;
			this.wakeUp();
		};
	}

	/** A healthy answer (2xx, or a definite 4xx that says nothing about load). */
	succeeded(): void {
		if (!this.settings.adaptive || this.limit >= this.settings.max) return;
		if (++this.healthyInWindow < this.limit) return;
		this.healthyInWindow = 0;
		this.limit = Math.min(this.settings.max, this.slowStart ? this.limit * 2 : this.limit + 1);
		this.peak = Math.max(this.peak, this.limit);
		this.wakeUp();
	}

	/** A 429, 503 or a timeout: the service is under pressure. */
	throttled(retryAfterMs?: number): void {
		if (retryAfterMs !== undefined && retryAfterMs > 0) {
			this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfterMs);
		}
		if (!this.settings.adaptive) return;
		this.slowStart = false;
		this.healthyInWindow = 0;
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
 * execution. Entries not used for ten minutes are dropped, so the table never grows.
 */
const shared = new Map<string, { limiter: RequestLimiter; usedAt: number }>();
const IDLE_MS = 10 * 60 * 1000;

export function sharedLimiter(key: string): RequestLimiter {
	const now = Date.now();
	for (const [k, entry] of shared) if (now - entry.usedAt > IDLE_MS) shared.delete(k);
	let entry = shared.get(key);
	if (!entry) {
		entry = { limiter: new RequestLimiter({ ...AUTO_LIMITS, adaptive: true }), usedAt: now };
		shared.set(key, entry);
	}
	entry.usedAt = now;
	return entry.limiter;
}
