/* eslint-disable @n8n/community-nodes/no-restricted-imports --
 * Tests, never shipped: read the script from disk, compare with node:crypto. */
/**
 * The Custom-activity script users paste (custom-activity/n8n-events.js), read as text: ECMAScript
 * 5.1 only, only the members ABBYY documents, the contract's settings, and its HMAC-SHA256 against
 * RFC 4231, FIPS 180-4 examples and node:crypto. What it sends is in ./delivery.test.ts.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createContext, runInContext } from 'node:vm';

import { EVENT_LINE, SCRIPT_PATH } from '../simulator/customActivity/activities';

const source = readFileSync(SCRIPT_PATH, 'utf8');

// espree (ESLint's parser, in the dev tree with eslint) has no type declarations: required, typed here.
interface Node {
	type: string;
	[key: string]: unknown;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const espree = require('espree') as {
	parse(code: string, options: { ecmaVersion: number; sourceType: 'script' }): Node;
};

function walk(
	node: unknown,
	visit: (node: Node, parent: Node | null) => void,
	parent: Node | null = null,
): void {
	if (Array.isArray(node)) {
		for (const child of node) walk(child, visit, parent);
		return;
	}
	if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
	visit(node as Node, parent);
	for (const [key, value] of Object.entries(node)) {
		if (key !== 'type' && value && typeof value === 'object') walk(value, visit, node as Node);
	}
}

describe('the script is ECMAScript 5.1 with only documented members', () => {
	const ast = espree.parse(source, { ecmaVersion: 5, sourceType: 'script' });

	test('parses as ECMAScript 5 (a later feature is a syntax error there)', () => {
		expect(ast.type).toBe('Program');
		expect(() => espree.parse('let a = 1;', { ecmaVersion: 5, sourceType: 'script' })).toThrow();
		expect(() =>
			espree.parse('var f = () => 1;', { ecmaVersion: 5, sourceType: 'script' }),
		).toThrow();
	});

	/** Members of Vantage's object model the script may use: the documented ones (README). */
	const VANTAGE = new Set([
		'Transaction',
		'GetSecret',
		'LogMessage',
		'CreateHttpRequest',
		'Id',
		'Documents',
		'RegistrationParameters',
		'Value',
		'DocumentId',
		'Url',
		'Method',
		'Timeout',
		'ThrowExceptionOnFailed',
		'SetHeader',
		'SetStringContent',
		'Send',
		'Status',
		'ResponseText',
	]);
	/** ES5.1 built-in members it may use. */
	const ES5 = new Set([
		'length',
		'push',
		'concat',
		'charCodeAt',
		'charAt',
		'substring',
		'replace',
		'trim',
		'toString',
		'toISOString',
		'getTime',
		'floor',
		'random',
		'stringify',
		'exec',
		'message',
	]);

	test('every member it reads or writes is documented by ABBYY, built into ES5.1 or its own', () => {
		const members = new Set<string>();
		// The script's own objects: the event, an answer, an address, the document IDs.
		const own = new Set<string>();
		walk(ast, (node) => {
			if (node.type === 'Property') own.add((node.key as Node).name as string);
			if (node.type === 'AssignmentExpression' && (node.left as Node).type === 'MemberExpression') {
				const target = node.left as Node;
				if ((target.object as Node).name === 'event')
					own.add((target.property as Node).name as string);
			}
			if (node.type !== 'MemberExpression') return;
			const property = node.property as Node;
			if (!node.computed && property.type === 'Identifier') members.add(property.name as string);
			if (node.computed && property.type === 'Literal' && typeof property.value === 'string')
				members.add(property.value);
		});
		// Vantage's members are PascalCase: none of the script's own may be.
		expect([...own].filter((m) => /^[A-Z]/.test(m))).toEqual([]);
		const unknown = [...members].filter((m) => !VANTAGE.has(m) && !ES5.has(m) && !own.has(m));
		expect(unknown).toEqual([]);
		// It never assigns Context.ErrorMessage (that would fail the transaction), nor reads it.
		expect(members.has('ErrorMessage')).toBe(false);
		// No field is read: no GetField, Fields, Exports, SourceFiles.
		for (const m of ['GetField', 'Fields', 'Exports', 'SourceFiles'])
			expect(members.has(m)).toBe(false);
	});

	test('its only globals are Context and ES5.1 built-ins', () => {
		const declared = new Set<string>();
		walk(ast, (node) => {
			if (node.type === 'FunctionDeclaration' || node.type === 'VariableDeclarator')
				declared.add((node.id as Node).name as string);
			if (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression')
				for (const p of node.params as Node[]) declared.add(p.name as string);
			if (node.type === 'CatchClause') declared.add((node.param as Node).name as string);
		});
		const free = new Set<string>();
		walk(ast, (node, parent) => {
			if (node.type !== 'Identifier' || declared.has(node.name as string)) return;
			if (parent?.type === 'MemberExpression' && parent.property === node && !parent.computed)
				return;
			if (parent?.type === 'Property' && parent.key === node) return;
			free.add(node.name as string);
		});
		expect([...free].sort()).toEqual([
			'Context',
			'Date',
			'JSON',
			'Math',
			'Number',
			'String',
			'undefined',
		]);
	});

	test('the settings of the contract: one event line, the secret names, the resume parameter', () => {
		expect(source.split(EVENT_LINE)).toHaveLength(2);
		expect(source).toContain('var SECRET_NAME = "n8n-events-secret";');
		expect(source).toContain('var URL_NAME = "n8n-events-url";');
		expect(source).toContain('var RESUME_PARAMETER = "n8nResumeUrl";');
		expect(source).toContain('var MAX_ATTEMPTS = 3;');
		expect(source).toContain('var RETRY_WINDOW_MS = 60000;');
		expect(source).toContain('var MAX_DOCUMENT_IDS = 100;');
		// The run is one try/catch at the top level: nothing escapes.
		expect(source.trimEnd()).toMatch(/try \{\n\tmain\(\);\n\} catch \(e\) \{\n[^\n]*\n\}$/);
	});
});

describe("the script's HMAC-SHA256 (pure ES5)", () => {
	// Its functions, from a run without a secret (it logs and returns).
	const sandbox: Record<string, unknown> = {
		Context: { GetSecret: () => null, LogMessage: () => undefined },
	};
	createContext(sandbox);
	runInContext(source, sandbox);
	const hmacHex = sandbox.hmacSha256Hex as (key: string, message: string) => string;
	const hmacBytes = sandbox.hmacSha256 as (key: number[], message: number[]) => number[];
	const sha256 = sandbox.sha256 as (bytes: number[]) => number[];
	const bytes = (buffer: Buffer) => [...buffer];
	const hex = (list: number[]) => Buffer.from(list).toString('hex');

	test.each([
		// RFC 4231 §4.2–4.8: key, data, HMAC-SHA-256 (case 5 truncated to 128 bits).
		[
			1,
			'0b'.repeat(20),
			Buffer.from('Hi There').toString('hex'),
			'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
		],
		[
			2,
			Buffer.from('Jefe').toString('hex'),
			Buffer.from('what do ya want for nothing?').toString('hex'),
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
			Buffer.from('Test With Truncation').toString('hex'),
			'a3b6167473100ee06e0c796c2955552b',
		],
		[
			6,
			'aa'.repeat(131),
			Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First').toString('hex'),
			'60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
		],
		[
			7,
			'aa'.repeat(131),
			Buffer.from(
				'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
			).toString('hex'),
			'9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
		],
	])('RFC 4231 test case %i', (_case, key, data, expected) => {
		const mac = hex(hmacBytes(bytes(Buffer.from(key, 'hex')), bytes(Buffer.from(data, 'hex'))));
		expect(mac.slice(0, expected.length)).toBe(expected);
	});

	test('SHA-256: FIPS 180-4 examples, and every padding length against node:crypto', () => {
		const sha = (text: string) => hex(sha256(bytes(Buffer.from(text, 'latin1'))));
		expect(sha('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
		expect(sha('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
		expect(sha('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
			'248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
		);
		for (let length = 0; length <= 130; length++) {
			const input = randomBytes(length);
			expect(hex(sha256(bytes(input)))).toBe(createHash('sha256').update(input).digest('hex'));
		}
	});

	/** A random string of `length` UTF-16 units: ASCII, Latin, CJK, emoji, lone surrogates. */
	function randomText(length: number): string {
		const pools = [
			() => String.fromCharCode(32 + Math.floor(Math.random() * 95)),
			() => String.fromCharCode(0xa0 + Math.floor(Math.random() * 0x700)),
			() => String.fromCharCode(0x4e00 + Math.floor(Math.random() * 0x5000)),
			() => String.fromCodePoint(0x1f300 + Math.floor(Math.random() * 0x300)),
			() => String.fromCharCode(0xd800 + Math.floor(Math.random() * 0x800)),
		];
		let out = '';
		while (out.length < length) out += pools[Math.floor(Math.random() * pools.length)]();
		return out;
	}

	test('equals node:crypto on 300 random keys and messages (non-ASCII, long keys, lone surrogates)', () => {
		for (let i = 0; i < 300; i++) {
			const key = randomText(Math.floor(Math.random() * (i % 10 === 0 ? 300 : 70)));
			const message = randomText(Math.floor(Math.random() * 200));
			expect(hmacHex(key, message)).toBe(createHmac('sha256', key).update(message).digest('hex'));
		}
	});

	test('the signed text of the contract, with a secret Vantage can hold (16 000 characters)', () => {
		const secret = randomText(16_000);
		const message = 'v1:1795930342:6f1c.transaction.processed.abcdefghijkl:6f1c';
		expect(hmacHex(secret, message)).toBe(
			createHmac('sha256', secret).update(message).digest('hex'),
		);
	});
});
