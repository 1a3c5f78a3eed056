/** Settings every reliability suite runs with; also printed in RELIABILITY.md. */
export const FAST = { maxRetries: 2, retryDelay: 0.01, maxRetryDelay: 2, timeout: 1 };
export const MAX_ATTEMPTS = FAST.maxRetries + 1;
