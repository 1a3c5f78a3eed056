import { createHash, createHmac, randomBytes } from 'node:crypto';

import {
	equalBytes,
	fromHex,
	hmacSha256,
	sha256,
	toHex,
	utf8,
} from '../../../nodes/AbbyyVantage/helpers/hmac';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('SHA-256 and HMAC-SHA256 in plain TypeScript', () => {
	// FIPS 180-4 examples (NIST CSRC "Examples with intermediate values") and the empty message.
	test.each([
		['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
		['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
		[
			'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
			'248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
		],
	])('SHA-256(%j) is NIST’s digest', (message, digest) => {
		expect(toHex(sha256(utf8(message)))).toBe(digest);
	});

	test('SHA-256 of a million "a" (NIST’s long message)', () => {
		expect(toHex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
			'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
		);
	});

	// RFC 4231 section 4: test cases 1-7 (case 5 is a truncated output: its first 128 bits).
	test.each([
		[
			1,
			'0b'.repeat(20),
			'4869205468657265',
			'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
		],
		[
			2,
			'4a656665',
			'7768617420646f2079612077616e7420666f72206e6f7468696e673f',
			'5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
		],
		[
			3,
			'aa'.repeat(20),
			'dd'.repeat(50),
			'773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
		],
		[
			4,
			'0102030405060708090a0b0c0d0e0f10111213141516171819',
			'cd'.repeat(50),
			'82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
		],
		[
			5,
			'0c'.repeat(20),
			'546573742057697468205472756e636174696f6e',
			'a3b6167473100ee06e0c796c2955552b',
		],
		[
			6,
			'aa'.repeat(131),
			'54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374',
			'60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
		],
		[
			7,
			'aa'.repeat(131),
			'5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e',
			'9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
		],
	])('RFC 4231 test case %i', (_case, key, data, mac) => {
		const out = toHex(hmacSha256(hex(key), hex(data)));
		expect(out.slice(0, mac.length)).toBe(mac);
	});

	test('agrees with node:crypto on random keys and messages of every length around the block size', () => {
		for (let length = 0; length <= 200; length++) {
			const key = randomBytes(length % 150);
			const message = randomBytes(length);
			expect(toHex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
			expect(toHex(hmacSha256(key, message))).toBe(
				createHmac('sha256', key).update(message).digest('hex'),
			);
		}
	});

	test('UTF-8 text (a secret or an id outside ASCII) is signed as node:crypto signs it', () => {
		const secret = 'clé-secrète-ünïcødé-🔐-0123456789abcdef';
		const text = 'v1:1767225600:évènement:transaction';
		expect(toHex(hmacSha256(utf8(secret), utf8(text)))).toBe(
			createHmac('sha256', secret).update(text).digest('hex'),
		);
	});

	test('hex round trip, refused hex, and byte comparison', () => {
		const bytes = randomBytes(32);
		expect(toHex(fromHex(toHex(bytes).toUpperCase())!)).toBe(bytes.toString('hex'));
		expect(fromHex('abc')).toBeUndefined();
		expect(fromHex('zz')).toBeUndefined();
		expect(equalBytes(bytes, Uint8Array.from(bytes))).toBe(true);
		const other = Uint8Array.from(bytes);
		other[31] ^= 1;
		expect(equalBytes(bytes, other)).toBe(false);
		expect(equalBytes(bytes, bytes.subarray(0, 31))).toBe(false);
	});
});
