/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: n8n-core's own DI container, DNS stubbed */
/**
 * File URL against server-side request forgery, through n8n-core's engine, as an attacker would
 * try it: links to loopback, private, link-local (cloud metadata) addresses in every spelling,
 * local names, names that resolve to such addresses, and redirects from an allowed server to each.
 * The targets are a stub listening on every local address (0.0.0.0 and :: at once), so a link that
 * got through would be seen there, whatever spelling reached it; a control run shows the same
 * spellings do reach it when listed. The pure checks, spelling by spelling:
 * test/node/helpers/internalAddress.test.ts.
 */
import dns from 'node:dns';
import { createRequire } from 'node:module';

import type { INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../../harness/n8n';
import { invoiceText } from '../../helpers/binary';
import { useFileServer } from '../../helpers/fileServer';
import { useSimulator } from '../../helpers/fixture';
import { processParams } from '../../helpers/params';

const f = useSimulator((sim) => sim.setDefaultTransactionScript({ processing: { polls: 0 } }));
/** The file server the user allows (127.0.0.1 and its port). */
const files = useFileServer();
/** The target: answers on every local address, IPv4 and IPv6 (dual-stack ::). */
const target = useFileServer('::');

const INVOICE = invoiceText({ number: 'INV-SSRF-1' });
const LOOPBACK = 'a loopback address (n8n’s own machine)';
const ADVICE =
	'Documents are not fetched from internal addresses: a link to one may be an attempt to make n8n read its own network (server-side request forgery). Use a link to the file on a public server (e.g. a presigned storage link); if the file really is on an internal server, list that host in Allowed Internal Hosts, e.g. files.corp.example.com, 10.20.0.5:8080 or 10.20.0.0/16.';

/** Process Document for items that carry their link in `link`, with `allowed` listed. */
const byLink = (allowed: string) =>
	processParams({
		inputFiles: 'url',
		fileUrl: '={{ $json.link }}',
		allowedInternalHosts: allowed,
	});

/** Every item's error message (Continue On Fail), or its status when it went through. */
const outcomes = (items: INodeExecutionData[]) =>
	items.map((item) => (item.json.error as string | undefined) ?? String(item.json.status));

/** Every spelling of the target stub, each with what the refusal calls its host. */
function hostileLinks(port: number): Array<[string, string]> {
	const mapped = `${LOOPBACK}, written as IPv4-mapped IPv6 (127.0.0.1)`;
	return [
		[`http://127.0.0.1:${port}/a.pdf`, LOOPBACK],
		[`http://127.0.0.2:${port}/a.pdf`, LOOPBACK],
		[`http://127.1:${port}/a.pdf`, LOOPBACK],
		[`http://2130706433:${port}/a.pdf`, LOOPBACK],
		[`http://0x7f000001:${port}/a.pdf`, LOOPBACK],
		[`http://0177.0.0.1:${port}/a.pdf`, LOOPBACK],
		[`http://0x7f.0.0.1:${port}/a.pdf`, LOOPBACK],
		[`http://127.0.0.1.:${port}/a.pdf`, LOOPBACK],
		[`http://１２７.０.０.１:${port}/a.pdf`, LOOPBACK],
		[`http://files@127.0.0.1:${port}/a.pdf`, LOOPBACK],
		[`http://storage.example.com:443@127.0.0.1:${port}/a.pdf`, LOOPBACK],
		[`http://127.0.0.1:${port}\\@storage.example.com/a.pdf`, LOOPBACK],
		[
			`http://0.0.0.0:${port}/a.pdf`,
			'an unspecified address ("this network": it reaches n8n’s own machine)',
		],
		[
			`http://0:${port}/a.pdf`,
			'an unspecified address ("this network": it reaches n8n’s own machine)',
		],
		[`http://[::1]:${port}/a.pdf`, 'a loopback address (::1, n8n’s own machine)'],
		[`http://[0:0:0:0:0:0:0:1]:${port}/a.pdf`, 'a loopback address (::1, n8n’s own machine)'],
		[`http://[::]:${port}/a.pdf`, 'an unspecified address (::, n8n’s own machine)'],
		[`http://[::ffff:127.0.0.1]:${port}/a.pdf`, mapped],
		[`http://[::ffff:7f00:1]:${port}/a.pdf`, mapped],
		[`http://localhost:${port}/a.pdf`, 'a name of n8n’s own machine (localhost)'],
		[`http://LocalHost.:${port}/a.pdf`, 'a name of n8n’s own machine (localhost)'],
		[`http://files.localhost:${port}/a.pdf`, 'a name of n8n’s own machine (localhost)'],
		[`http://user:secret@localhost:${port}/a.pdf`, 'a name of n8n’s own machine (localhost)'],
		[
			`http://fileserver:${port}/a.pdf`,
			'a single-label name (an intranet host such as "fileserver" or "metadata")',
		],
		[
			'http://169.254.169.254/latest/meta-data/iam/',
			'a link-local address, where cloud metadata services answer',
		],
		['http://metadata.google.internal/computeMetadata/v1/', 'a local network name (.internal)'],
		[
			'http://100.100.100.200/latest/meta-data/',
			'a shared (carrier-grade NAT) address, where some clouds answer metadata requests',
		],
		[
			'http://[fd00:ec2::254]/latest/meta-data/',
			'a unique-local IPv6 address (a private network, where some cloud metadata services answer)',
		],
		['http://10.0.0.1/share/a.pdf', 'a private network address'],
		['http://192.168.178.1/a.pdf', 'a private network address'],
	];
}

/** How the node shows a link in a message: WHATWG's normalised host and path, no user or query. */
function shown(link: string): string {
	const url = new URL(link);
	return `${url.protocol}//${url.host}${url.pathname}`;
}

describe('File URL refuses links to where a document never lives', () => {
	test('every spelling of loopback, private and metadata addresses is refused, naming the item, and nothing reaches the target', async () => {
		const links = hostileLinks(target.server.port);
		target.server.serve('/a.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			items: links.map(([link]) => ({ link })),
			parameters: byLink(files.server.allowed),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual(
			links.map(
				([link, why], item) =>
					`File URL ${shown(link)} was not fetched: its host is ${why} [item ${item}]`,
			),
		);
		expect(result.items[0].json.errorDescription).toBe(ADVICE);
		expect(target.server.requests).toEqual([]);
		expect(files.server.requests).toEqual([]);
		expect(f.sim.requests).toEqual([]);
	});

	test('control: the same spellings do reach the target when the user lists it', async () => {
		target.server.serve('/a.pdf', { body: INVOICE });
		const port = target.server.port;
		const links = [
			`http://0x7f.1:${port}/a.pdf`,
			`http://127.0.0.2:${port}/a.pdf`,
			`http://files@localhost:${port}/a.pdf`,
			// Where the machine has IPv6 (else the stub answers on IPv4 only).
			...(target.server.ipv6
				? [`http://[::1]:${port}/a.pdf`, `http://[::ffff:127.0.0.1]:${port}/a.pdf`]
				: []),
		];
		const result = await runNode({
			credentials: f.store,
			items: links.map((link) => ({ link })),
			parameters: byLink(`127.0.0.0/8:${port}, [::1]:${port}, localhost:${port}`),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual(links.map(() => 'Processed'));
		// Each spelling reached the stub (n8n's proxy lookup warns DEP0170 on an IPv6 host: harmless).
		const reached = target.server.requests.map((r) => r.from);
		expect(reached).toHaveLength(links.length);
		expect(reached).toEqual(
			expect.arrayContaining(target.server.ipv6 ? ['::ffff:127.0.0.2', '::1'] : ['127.0.0.2']),
		);
	});

	test('without Continue On Fail, one refused link stops the run before any item is fetched or sent', async () => {
		const good = files.server.serve('/ok.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			items: [{ link: good }, { link: 'http://[::ffff:169.254.169.254]/latest/meta-data/' }],
			parameters: byLink(files.server.allowed),
		});
		expect(result.error?.message).toBe(
			'File URL http://[::ffff:a9fe:a9fe]/latest/meta-data/ was not fetched: its host is a link-local address, where cloud metadata services answer, written as IPv4-mapped IPv6 (169.254.169.254) [item 1]',
		);
		expect(result.error?.description).toBe(ADVICE);
		expect(files.server.requests).toEqual([]);
		expect(f.sim.requests).toEqual([]);
	});

	test('a very long link is refused before any request', async () => {
		const long = `${files.server.url('/a.pdf')}?X-Amz-Security-Token=${'A'.repeat(9000)}`;
		const result = await runNode({
			credentials: f.store,
			items: [{ link: long }],
			parameters: byLink(files.server.allowed),
		});
		expect(result.error?.message).toBe(
			`File URL is longer than 8192 characters (${long.length}) [item 0]`,
		);
		expect(files.server.requests).toEqual([]);
	});
});

describe('Allowed Internal Hosts lets exactly the listed server through', () => {
	test('host:port lets one loopback server through and not its neighbour on the same address', async () => {
		const allowed = files.server.serve('/invoice.pdf', { body: INVOICE });
		const neighbour = target.server.serve('/invoice.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			items: [{ link: allowed }, { link: neighbour }],
			parameters: byLink(files.server.allowed),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual([
			'Processed',
			`File URL ${neighbour} was not fetched: its host is ${LOOPBACK} [item 1]`,
		]);
		expect(files.server.requests.map((r) => r.path)).toEqual(['/invoice.pdf']);
		expect(target.server.requests).toEqual([]);
	});

	test('an entry that is not a host, an address or a range is refused, naming the parameter and the item, before any request', async () => {
		const good = files.server.serve('/ok.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			items: [
				{ link: good, hosts: files.server.allowed },
				{ link: good, hosts: '10.0.0.0/33' },
			],
			parameters: {
				...byLink(''),
				allowedInternalHosts: '={{ $json.hosts }}',
			},
		});
		expect(result.error?.message).toBe(
			'Allowed Internal Hosts: "10.0.0.0/33" has a prefix length that is not a number from 0 to 32 [item 1]',
		);
		expect(files.server.requests).toEqual([]);
		expect(f.sim.requests).toEqual([]);
	});
});

describe('redirects: every hop is checked before it is requested', () => {
	test('an allowed server redirecting to each internal spelling is refused at the hop, and nothing reaches the target', async () => {
		const hops = hostileLinks(target.server.port);
		// A Location header is ASCII: a server sends a non-ASCII host percent-encoded.
		const ascii = (link: string) => (/[^ -~]/.test(link) ? encodeURI(link) : link);
		const links = hops.map(([to], i) => files.server.serve(`/share/${i}`, { redirect: ascii(to) }));
		const result = await runNode({
			credentials: f.store,
			items: links.map((link) => ({ link })),
			parameters: byLink(files.server.allowed),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual(
			hops.map(
				([to, why], item) =>
					`File URL ${links[item]} was not fetched: it redirected to ${shown(to)}, whose host is ${why} [item ${item}]`,
			),
		);
		expect(files.server.requests).toHaveLength(hops.length);
		expect(target.server.requests).toEqual([]);
		expect(f.sim.requests).toEqual([]);
	});

	test('a redirect to the allowed server’s neighbour port is refused; one to the allowed server itself is followed', async () => {
		files.server.serve('/to-neighbour', { redirect: target.server.url('/a.pdf') });
		files.server.serve('/to-self', { redirect: files.server.url('/a.pdf') });
		files.server.serve('/a.pdf', { body: INVOICE });
		target.server.serve('/a.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			items: [{ link: files.server.url('/to-neighbour') }, { link: files.server.url('/to-self') }],
			parameters: byLink(files.server.allowed),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual([
			`File URL ${files.server.url('/to-neighbour')} was not fetched: it redirected to ${target.server.url('/a.pdf')}, whose host is ${LOOPBACK} [item 0]`,
			'Processed',
		]);
		expect(target.server.requests).toEqual([]);
	});
});

describe('names that resolve to internal addresses (n8n 2.x lends its lookup)', () => {
	/** DNS as an attacker controls it: these names answer with these addresses. */
	const ZONE: Record<string, string[]> = {
		'invoices.attacker.example': ['127.0.0.1'],
		'cdn.attacker.example': ['93.184.216.34', '100.100.100.200'],
		'v6.attacker.example': ['::ffff:10.1.2.3'],
		'files.corp.example': ['127.0.0.1'],
	};
	let lookup: jest.SpyInstance;
	beforeEach(() => {
		const real = dns.lookup;
		lookup = jest.spyOn(dns, 'lookup').mockImplementation(((
			hostname: string,
			options: unknown,
			callback?: (...args: unknown[]) => void,
		) => {
			const done = (typeof options === 'function' ? options : callback) as (
				...a: unknown[]
			) => void;
			const all = typeof options === 'object' && (options as { all?: boolean })?.all;
			const addresses = ZONE[hostname];
			if (!addresses) return (real as (...a: unknown[]) => void)(hostname, options, callback);
			const records = addresses.map((address) => ({
				address,
				family: address.includes(':') ? 6 : 4,
			}));
			void Promise.resolve().then(() =>
				all ? done(null, records) : done(null, records[0].address, records[0].family),
			);
		}) as typeof dns.lookup);
	});
	afterEach(() => lookup.mockRestore());

	test('a public-looking name resolving to loopback, shared or mapped private addresses is refused before any request', async () => {
		const port = target.server.port;
		const links = [
			`http://invoices.attacker.example:${port}/a.pdf`,
			`http://cdn.attacker.example:${port}/a.pdf`,
			`http://v6.attacker.example:${port}/a.pdf`,
		];
		const result = await runNode({
			credentials: f.store,
			items: links.map((link) => ({ link })),
			parameters: byLink(files.server.allowed),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual([
			`File URL ${links[0]} was not fetched: its host resolves to 127.0.0.1, ${LOOPBACK} [item 0]`,
			`File URL ${links[1]} was not fetched: its host resolves to 100.100.100.200, a shared (carrier-grade NAT) address, where some clouds answer metadata requests [item 1]`,
			`File URL ${links[2]} was not fetched: its host resolves to ::ffff:10.1.2.3, a private network address, written as IPv4-mapped IPv6 (10.1.2.3) [item 2]`,
		]);
		expect(target.server.requests).toEqual([]);
	});

	test('a redirect to such a name is refused at the hop; a name resolving into a listed range is fetched', async () => {
		const rebind = `http://invoices.attacker.example:${target.server.port}/a.pdf`;
		files.server.serve('/share/x', { redirect: rebind });
		const corp = `http://files.corp.example:${files.server.port}/a.pdf`;
		files.server.serve('/a.pdf', { body: INVOICE });
		const result = await runNode({
			credentials: f.store,
			items: [{ link: files.server.url('/share/x') }, { link: corp }],
			parameters: byLink(`127.0.0.1/32:${files.server.port}`),
			continueOnFail: true,
		});
		expect(outcomes(result.items)).toEqual([
			`File URL ${files.server.url('/share/x')} was not fetched: it redirected to ${rebind}, whose host resolves to 127.0.0.1, ${LOOPBACK} [item 0]`,
			'Processed',
		]);
		expect(files.server.requests.map((r) => r.path)).toEqual(['/share/x', '/a.pdf']);
		expect(target.server.requests).toEqual([]);
	});

	test('a name that does not resolve is no refusal: the download fails on its own', async () => {
		const result = await runNode({
			credentials: f.store,
			items: [{ link: 'http://no-such-host.invalid/a.pdf' }],
			parameters: byLink(''),
		});
		expect(result.error?.message).toMatch(
			/^File URL http:\/\/no-such-host\.invalid\/a\.pdf: the download failed without an answer \(.+\) \[item 0\]$/,
		);
	});
});

describe('n8n’s own SSRF protection (N8N_SSRF_PROTECTION_ENABLED) has the last word', () => {
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	const { Container } = requireFromCore('@n8n/di') as {
		Container: { get<T>(type: new (...args: never[]) => T): T };
	};
	const { SsrfProtectionConfig } = requireFromCore('@n8n/config') as {
		SsrfProtectionConfig: new () => { enabled: boolean };
	};

	test('a host the user listed is still refused when n8n blocks it, worded as n8n’s refusal with what an administrator can set', async () => {
		const config = Container.get(SsrfProtectionConfig);
		const link = files.server.serve('/a.pdf', { body: INVOICE });
		config.enabled = true;
		let result: Awaited<ReturnType<typeof runNode>>;
		try {
			result = await runNode({
				credentials: f.store,
				items: [{ link }],
				parameters: byLink(files.server.allowed),
			});
		} finally {
			config.enabled = false;
		}
		expect(result.error?.message).toBe(
			`File URL ${link} was not fetched: its host was refused by n8n’s SSRF protection (The request was blocked because it resolves to a restricted IP address) [item 0]`,
		);
		expect(result.error?.description).toBe(
			'n8n’s SSRF protection (N8N_SSRF_PROTECTION_ENABLED) does not connect to this address, and Allowed Internal Hosts does not override it. If the file really is there, an n8n administrator must allow it as well: N8N_SSRF_ALLOWED_HOSTNAMES for names, N8N_SSRF_ALLOWED_IP_RANGES for addresses.',
		);
		expect(files.server.requests).toEqual([]);
	});
});
