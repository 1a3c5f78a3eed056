/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain TypeScript: a community node imports
 * nothing but n8n-workflow, so node:crypto is out of reach. Checked against NIST's and RFC 4231's
 * vectors and against node:crypto in test/node/instantTrigger/hmac.test.ts. Inputs here are a few
 * hundred bytes at most (a secret and "v1:<timestamp>:<eventId>:<transactionId>").
 */

/** SHA-256's round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Uint32Array([
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = [
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const BLOCK_BYTES = 64;

function rotr(x: number, n: number): number {
	return (x >>> n) | (x << (32 - n));
}

/** The UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
	return new TextEncoder().encode(text);
}

/** SHA-256 of `message`: 32 bytes. */
export function sha256(message: Uint8Array): Uint8Array {
	// Padding: a 1 bit, zeros, then the message length in bits as a 64-bit big-endian number.
	const length = message.length;
	const padded = new Uint8Array(Math.ceil((length + 9) / BLOCK_BYTES) * BLOCK_BYTES);
	padded.set(message);
	padded[length] = 0x80;
	const view = new DataView(padded.buffer);
	const bits = length * 8;
	view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
	view.setUint32(padded.length - 4, bits >>> 0);

	const h = H0.slice();
	const w = new Uint32Array(64);
	for (let offset = 0; offset < padded.length; offset += BLOCK_BYTES) {
		for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
		for (let t = 16; t < 64; t++) {
			const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
			const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
			w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
		}
		let [a, b, c, d, e, f, g, hh] = h;
		for (let t = 0; t < 64; t++) {
			const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
			const ch = (e & f) ^ (~e & g);
			const t1 = (hh + S1 + ch + K[t] + w[t]) >>> 0;
			const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
			const maj = (a & b) ^ (a & c) ^ (b & c);
			const t2 = (S0 + maj) >>> 0;
			hh = g;
			g = f;
			f = e;
			e = (d + t1) >>> 0;
			d = c;
			c = b;
			b = a;
			a = (t1 + t2) >>> 0;
		}
		h[0] = (h[0] + a) >>> 0;
		h[1] = (h[1] + b) >>> 0;
		h[2] = (h[2] + c) >>> 0;
		h[3] = (h[3] + d) >>> 0;
		h[4] = (h[4] + e) >>> 0;
		h[5] = (h[5] + f) >>> 0;
		h[6] = (h[6] + g) >>> 0;
		h[7] = (h[7] + hh) >>> 0;
	}
	const digest = new Uint8Array(32);
	const out = new DataView(digest.buffer);
	h.forEach((word, i) => out.setUint32(i * 4, word));
	return digest;
}

/** HMAC-SHA256 of `message` under `key` (RFC 2104; a key longer than a block is hashed first). */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
	const block = new Uint8Array(BLOCK_BYTES);
	block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
	const inner = new Uint8Array(BLOCK_BYTES + message.length);
	const outer = new Uint8Array(BLOCK_BYTES + 32);
	for (let i = 0; i < BLOCK_BYTES; i++) {
		inner[i] = block[i] ^ 0x36;
		outer[i] = block[i] ^ 0x5c;
	}
	inner.set(message, BLOCK_BYTES);
	outer.set(sha256(inner), BLOCK_BYTES);
	return sha256(outer);
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
	let hex = '';
	for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
	return hex;
}

/** The bytes of an even-length hex string (either case); undefined when it is not one. */
export function fromHex(hex: string): Uint8Array | undefined {
	if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
	const bytes = new Uint8Array(hex.length / 2);
	for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
	return bytes;
}

/**
 * Whether `a` and `b` hold the same bytes, in a time that depends on their length only: a
 * signature compared byte by byte, stopping at the first difference, tells an attacker how many
 * leading bytes of a forgery were right.
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	let difference = 0;
	for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
	return difference === 0;
}
