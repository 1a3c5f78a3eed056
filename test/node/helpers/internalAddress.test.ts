import {
	allowsAddress,
	allowsHost,
	parseAllowedHosts,
	type AllowedHost,
} from '../../../nodes/AbbyyVantage/helpers/allowedHosts';
import { internalHostRefusal, parseFileUrl } from '../../../nodes/AbbyyVantage/helpers/fileUrl';
import {
	namesOwnMachine,
	parseIp,
	parseIpv4,
	parseIpv6,
	whyInternal,
	whyInternalAddress,
} from '../../../nodes/AbbyyVantage/helpers/internalAddress';
import { FILE_URL_MAX_CHARS } from '../../../nodes/AbbyyVantage/constants';

/**
 * Where a document never lives, as an attacker would spell it: the pure checks File URL runs on
 * every link and every redirect's target before any request (the requests themselves:
 * test/node/transaction/fileUrl.ssrf.test.ts).
 */

/** The host File URL reads from a link: WHATWG URL's, so every spelling is normalised first. */
const why = (link: string) => whyInternal(new URL(link).hostname);

const LOOPBACK = 'a loopback address (n8n’s own machine)';
const PRIVATE = 'a private network address';
const LINK_LOCAL = 'a link-local address, where cloud metadata services answer';

describe('hostile links: every spelling of an internal address is recognised', () => {
	test.each([
		// IPv4, every form WHATWG URL reads
		['http://127.0.0.1/', LOOPBACK],
		['http://127.0.0.2:8080/', LOOPBACK],
		['http://127.1/', LOOPBACK],
		['http://2130706433/', LOOPBACK],
		['http://0x7f000001/', LOOPBACK],
		['http://0177.0.0.1/', LOOPBACK],
		['http://0x7f.1/', LOOPBACK],
		['http://0x7f.0x0.0x0.0x1/', LOOPBACK],
		['http://127.000.000.001/', LOOPBACK],
		['http://127.0.0.1./', LOOPBACK],
		['http://%31%32%37.0.0.1/', LOOPBACK],
		['http://１２７.０.０.１/', LOOPBACK],
		['http://①②⑦.⓪.⓪.①/', LOOPBACK],
		// user-info and backslash tricks: the host is what is reached
		['http://files@127.0.0.1/invoice.pdf', LOOPBACK],
		['http://storage.example.com@127.0.0.1/', LOOPBACK],
		['http://user:pass@10.0.0.1/', PRIVATE],
		['http://127.0.0.1\\@storage.example.com/', LOOPBACK],
		// cloud metadata
		['http://169.254.169.254/latest/meta-data/', LINK_LOCAL],
		['http://2852039166/latest/meta-data/', LINK_LOCAL],
		['http://0xa9.0xfe.0xa9.0xfe/', LINK_LOCAL],
		[
			'http://100.100.100.200/latest/meta-data/',
			'a shared (carrier-grade NAT) address, where some clouds answer metadata requests',
		],
		[
			'http://[fd00:ec2::254]/latest/meta-data/',
			'a unique-local IPv6 address (a private network, where some cloud metadata services answer)',
		],
		['http://metadata.google.internal/computeMetadata/v1/', 'a local network name (.internal)'],
		[
			'http://metadata/computeMetadata/v1/',
			'a single-label name (an intranet host such as "fileserver" or "metadata")',
		],
		// private, shared, reserved, multicast, broadcast, unspecified
		['http://10.20.30.40/', PRIVATE],
		['http://172.16.0.1/', PRIVATE],
		['http://172.31.255.255/', PRIVATE],
		['http://192.168.1.1/', PRIVATE],
		['http://0.0.0.0/', 'an unspecified address ("this network": it reaches n8n’s own machine)'],
		['http://0/', 'an unspecified address ("this network": it reaches n8n’s own machine)'],
		['http://192.0.0.8/', 'a reserved address (IETF protocol assignments)'],
		['http://192.0.2.1/', 'a reserved address (documentation)'],
		['http://198.18.0.1/', 'a reserved address (network benchmarking)'],
		['http://198.51.100.7/', 'a reserved address (documentation)'],
		['http://203.0.113.9/', 'a reserved address (documentation)'],
		['http://224.0.0.1/', 'a multicast address'],
		['http://255.255.255.255/', 'a reserved address (or the broadcast address)'],
		// IPv6, bracketed, compressed and carrying IPv4
		['http://[::1]/', 'a loopback address (::1, n8n’s own machine)'],
		['http://[0:0:0:0:0:0:0:1]:8080/', 'a loopback address (::1, n8n’s own machine)'],
		['http://[::]/', 'an unspecified address (::, n8n’s own machine)'],
		['http://[::ffff:127.0.0.1]/', `${LOOPBACK}, written as IPv4-mapped IPv6 (127.0.0.1)`],
		['http://[::ffff:7f00:1]/', `${LOOPBACK}, written as IPv4-mapped IPv6 (127.0.0.1)`],
		[
			'http://[0:0:0:0:0:ffff:169.254.169.254]/',
			`${LINK_LOCAL}, written as IPv4-mapped IPv6 (169.254.169.254)`,
		],
		['http://[::127.0.0.1]/', `${LOOPBACK}, written as IPv4-compatible IPv6 (127.0.0.1)`],
		['http://[::ffff:0:10.0.0.1]/', `${PRIVATE}, written as IPv4-translated IPv6 (10.0.0.1)`],
		[
			'http://[64:ff9b::169.254.169.254]/',
			`${LINK_LOCAL}, written as NAT64 IPv6 (169.254.169.254)`,
		],
		['http://[2002:7f00:1::]/', `${LOOPBACK}, written as 6to4 IPv6 (127.0.0.1)`],
		['http://[2002:c0a8:101::1]/', `${PRIVATE}, written as 6to4 IPv6 (192.168.1.1)`],
		['http://[fe80::1]/', 'a link-local IPv6 address'],
		['http://[febf:ffff::1]/', 'a link-local IPv6 address'],
		['http://[fec0::1]/', 'a site-local IPv6 address (a private network)'],
		[
			'http://[fc00::5]/',
			'a unique-local IPv6 address (a private network, where some cloud metadata services answer)',
		],
		['http://[ff02::1]/', 'a multicast IPv6 address'],
		['http://[2001:db8::1]/', 'a reserved IPv6 address (documentation)'],
		// names
		['http://localhost:5678/rest/', 'a name of n8n’s own machine (localhost)'],
		['http://LOCALHOST./', 'a name of n8n’s own machine (localhost)'],
		['http://files.localhost/', 'a name of n8n’s own machine (localhost)'],
		['http://a.b.localhost./', 'a name of n8n’s own machine (localhost)'],
		[
			'http://fileserver/share/invoice.pdf',
			'a single-label name (an intranet host such as "fileserver" or "metadata")',
		],
		[
			'http://fileserver./',
			'a single-label name (an intranet host such as "fileserver" or "metadata")',
		],
		['http://printer.local/', 'a local network name (.local)'],
		['http://nas.home.arpa/', 'a local network name (.home.arpa)'],
		['http://box.localdomain/', 'a local network name (.localdomain)'],
		['http://vault.corp.internal/', 'a local network name (.internal)'],
	])('%s: %s', (link, expected) => {
		expect(why(link)).toBe(expected);
	});

	test.each([
		'https://my-bucket.s3.eu-central-1.amazonaws.com/invoices/4711.pdf?X-Amz-Signature=abc',
		'https://account.blob.core.windows.net/container/a.pdf?sig=abc',
		'https://storage.googleapis.com/bucket/a.pdf',
		'http://8.8.8.8/',
		'http://172.32.0.1/',
		'http://172.15.255.255/',
		'http://100.63.255.255/',
		'http://100.128.0.1/',
		'http://169.253.0.1/',
		'http://192.169.0.1/',
		'http://223.255.255.255/',
		'http://[2606:4700:4700::1111]/',
		'http://[2001:4860:4860::8888]/',
		'http://[::ffff:8.8.8.8]/',
		'http://[64:ff9b::8.8.8.8]/',
		'http://[2002:808:808::]/',
		'http://localhost.example.com/',
		'http://local.example.com/',
		'http://internal.example.com/',
		'http://127.0.0.1.example.com/',
	])('public: %s', (link) => {
		expect(why(link)).toBeUndefined();
	});

	test('IPv4 is read as WHATWG URL reads it, and only that', () => {
		expect(parseIpv4('127.0.0.1')).toBe(0x7f000001);
		expect(parseIpv4('127.1')).toBe(0x7f000001);
		expect(parseIpv4('127.0.1')).toBe(0x7f000001);
		expect(parseIpv4('0x7f.1')).toBe(0x7f000001);
		expect(parseIpv4('017700000001')).toBe(0x7f000001);
		expect(parseIpv4('0x')).toBe(0);
		expect(parseIpv4('4294967295')).toBe(0xffffffff);
		for (const text of [
			'4294967296',
			'256.0.0.1',
			'1.2.3.4.5',
			'08.0.0.1',
			'0x1g',
			'a.b',
			'',
			'.',
			'1..2',
		]) {
			expect([text, parseIpv4(text)]).toEqual([text, undefined]);
		}
		// Agrees with WHATWG URL on every form the node accepts.
		for (const text of ['127.1', '0x7f.1', '0177.0.0.1', '2130706433', '10.0x1.0.07']) {
			const value = parseIpv4(text)!;
			const dotted = [24, 16, 8, 0].map((s) => Math.floor(value / 2 ** s) % 256).join('.');
			expect(new URL(`http://${text}/`).hostname).toBe(dotted);
		}
	});

	test('IPv6 is read in full: compressed forms, a dotted IPv4 tail, nothing malformed', () => {
		expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
		expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
		expect(parseIpv6('fd00:ec2::254')).toEqual([0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]);
		expect(parseIpv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
		expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		for (const text of [
			':::1',
			'1::2::3',
			'1:2:3:4:5:6:7:8:9',
			'1:2:3:4:5:6:7::8',
			'12345::',
			'::ffff:127.0.0.01',
			'::ffff:127.0.1',
			'::ffff:256.0.0.1',
			'1:2:3:4:5:6:7',
			'g::1',
			'::1%eth0',
		]) {
			expect([text, parseIpv6(text)]).toEqual([text, undefined]);
		}
		expect(whyInternalAddress('::ffff:10.1.2.3')).toBe(
			`${PRIVATE}, written as IPv4-mapped IPv6 (10.1.2.3)`,
		);
		expect(whyInternalAddress('93.184.216.34')).toBeUndefined();
		expect(whyInternalAddress('not an address')).toBeUndefined();
	});

	test(`a link longer than ${FILE_URL_MAX_CHARS} characters, or malformed, is refused before its host is looked at`, () => {
		const long = `https://storage.example.com/a.pdf?X-Amz-Security-Token=${'a'.repeat(FILE_URL_MAX_CHARS)}`;
		expect(parseFileUrl(long)).toBe(
			`is longer than ${FILE_URL_MAX_CHARS} characters (${long.length})`,
		);
		// A presigned link with a session token (about 2–3 KB) is fine.
		expect(
			parseFileUrl(`https://s3.amazonaws.com/b/a.pdf?X-Amz-Security-Token=${'a'.repeat(3000)}`),
		).toBeInstanceOf(URL);
		// Within the bound as written, beyond it once percent-encoded.
		expect(
			parseFileUrl(`https://storage.example.com/${' '.repeat(FILE_URL_MAX_CHARS - 40)}x`),
		).toMatch(/^is longer than \d+ characters once normalised/);
		for (const link of [
			'http://[::1/',
			'http://127.0.0.1:99999/',
			'http://',
			'http://256.0.0.1/',
			'http://1.2.3.4.5/',
			'http://[::ffff:127.0.0.01]/',
			'http://exa mple.com/',
		]) {
			expect([link, parseFileUrl(link)]).toEqual([
				link,
				'is not a URL (it must start with http:// or https://)',
			]);
		}
	});
});

describe('Allowed Internal Hosts: what the user lets through, and only that', () => {
	const hosts = (text: string) => parseAllowedHosts(text) as AllowedHost[];
	const allows = (text: string, link: string) => allowsHost(hosts(text), new URL(link));

	test('exact names, *.suffix wildcards (subdomains only), addresses, ranges, each with an optional port', () => {
		const list =
			'files.corp.example.com, *.share.example.com\n10.20.0.0/16 127.0.0.1:8080,[fd00::1]:8443; fd12::/16 [::1]';
		expect(parseAllowedHosts(list)).toHaveLength(7);
		const yes = [
			'http://files.corp.example.com/a.pdf',
			'https://FILES.corp.example.com./a.pdf',
			'http://eu.share.example.com:9000/a.pdf',
			'http://10.20.255.1/',
			'http://10.20.0.1:9999/',
			'http://127.0.0.1:8080/a.pdf',
			'http://2130706433:8080/',
			'http://[::ffff:127.0.0.1]:8080/',
			'https://[fd00::1]:8443/',
			'http://[fd12:3456::9]/',
			'http://[::1]:1234/',
		];
		const no = [
			'http://share.example.com/',
			'http://evilshare.example.com/',
			'http://corp.example.com/',
			'http://files.corp.example.com.attacker.example/',
			'http://10.21.0.1/',
			'http://127.0.0.1/',
			'http://127.0.0.1:8081/',
			'http://127.0.0.2:8080/',
			'http://localhost:8080/',
			'https://[fd00::1]/',
			'http://[fd00::2]:8443/',
			'http://[fd13::1]/',
		];
		for (const link of yes)
			expect([link, allowsHost(hosts(list), new URL(link))]).toEqual([link, true]);
		for (const link of no)
			expect([link, allowsHost(hosts(list), new URL(link))]).toEqual([link, false]);
	});

	test('a port matches the link’s own, or its scheme’s default', () => {
		expect(allows('intranet:80', 'http://intranet/')).toBe(true);
		expect(allows('intranet:443', 'https://intranet/')).toBe(true);
		expect(allows('intranet:443', 'http://intranet/')).toBe(false);
		expect(allows('intranet', 'http://intranet:8080/')).toBe(true);
	});

	test('entries in any IPv4 spelling, and mapped IPv6, mean the address they spell', () => {
		expect(allows('0x7f.1:9000', 'http://127.0.0.1:9000/')).toBe(true);
		expect(allows('[::ffff:127.0.0.1]:9000', 'http://127.0.0.1:9000/')).toBe(true);
		expect(allows('::ffff:10.0.0.0/104', 'http://10.9.9.9/')).toBe(true);
		expect(allows('::ffff:10.0.0.0/104', 'http://11.0.0.1/')).toBe(false);
	});

	test('addresses a name resolved to are matched by range and port', () => {
		const list = hosts('10.20.0.0/16:443, fd00::/8');
		expect(allowsAddress(list, parseIp('10.20.1.1')!, 443)).toBe(true);
		expect(allowsAddress(list, parseIp('10.20.1.1')!, 80)).toBe(false);
		expect(allowsAddress(list, parseIp('::ffff:10.20.1.1')!, 443)).toBe(true);
		expect(allowsAddress(list, parseIp('fd00::7')!, 80)).toBe(true);
		expect(allowsAddress(list, parseIp('127.0.0.1')!, 443)).toBe(false);
	});

	test('an empty list allows nothing internal; public hosts need no entry', () => {
		expect(parseAllowedHosts('')).toEqual([]);
		expect(parseAllowedHosts(' , \n ')).toEqual([]);
		const none = { hosts: [] };
		expect(
			internalHostRefusal(new URL('https://bucket.s3.amazonaws.com/a.pdf'), none),
		).toBeUndefined();
		expect(internalHostRefusal(new URL('http://127.0.0.1:8080/'), none)).toBe(`is ${LOOPBACK}`);
		const listed = { hosts: hosts('127.0.0.1:8080') };
		expect(internalHostRefusal(new URL('http://127.0.0.1:8080/'), listed)).toBeUndefined();
		expect(internalHostRefusal(new URL('http://127.0.0.1:8081/'), listed)).toBe(`is ${LOOPBACK}`);
	});

	test.each([
		['files.example.com:0', 'has a port that is not a number from 1 to 65535'],
		['files.example.com:65536', 'has a port that is not a number from 1 to 65535'],
		['files.example.com:http', 'has a port that is not a number from 1 to 65535'],
		['10.0.0.0/33', 'has a prefix length that is not a number from 0 to 32'],
		['fd00::/129', 'has a prefix length that is not a number from 0 to 128'],
		['10.0.0.0/', 'has a prefix length that is not a number from 0 to 32'],
		['files/8', 'is not a CIDR range (e.g. 10.20.0.0/16 or fd00::/8)'],
		['10.0.0.0/8/8', 'is not a CIDR range (e.g. 10.20.0.0/16 or fd00::/8)'],
		['*', 'allows every host: list the hosts or ranges themselves'],
		['*.10.0.0.1', 'puts a wildcard before an address: write a CIDR range'],
		['files.*.example.com', 'is not a host name, an IP address or a CIDR range'],
		['http://files.example.com/', 'is a link: write only its host (e.g. files.corp.example.com)'],
		['user@files.example.com', 'is not a host name, an IP address or a CIDR range'],
		['fd00:::8443', 'is not an IPv6 address (with a port, write [address]:port)'],
		['[files.example.com]', 'has brackets around something that is not an IPv6 address'],
		[':8080', 'names no host'],
	])('refused entry %s: %s', (entry, expected) => {
		expect(parseAllowedHosts(`ok.example.com, ${entry}`)).toEqual({ entry, why: expected });
	});
});

describe('namesOwnMachine: the resume URL Vantage elsewhere cannot reach', () => {
	test.each([
		'localhost',
		'n8n.localhost',
		'127.0.0.1',
		'127.1',
		'0x7f000001',
		'0.0.0.0',
		'[::1]',
		'[::]',
		'[::ffff:127.0.0.1]',
		'LOCALHOST.',
	])('%s names n8n’s own machine', (host) => {
		expect(namesOwnMachine(new URL(`http://${host}:5678/`).hostname)).toBe(true);
	});

	test.each(['n8n.example.com', '10.0.0.5', '192.168.1.20', 'n8n', '[fd00::1]', '93.184.216.34'])(
		'%s does not (another machine, reachable or not)',
		(host) => {
			expect(namesOwnMachine(new URL(`http://${host}:5678/`).hostname)).toBe(false);
		},
	);
});
