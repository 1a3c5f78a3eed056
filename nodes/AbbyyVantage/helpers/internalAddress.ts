/**
 * Where a document never lives: hosts and addresses that only mean something inside n8n's own
 * network (this machine, a private network, a cloud's metadata service). A link to one, given to
 * File URL, is how a prompt or a crafted item makes n8n read its own surroundings (server-side
 * request forgery). Pure functions over text: no name is resolved here.
 *
 * IPv4 as the WHATWG URL standard reads a host (each of up to four parts decimal, octal with a
 * leading 0, or hexadecimal with 0x; the last part fills the remaining bytes), so that
 * "2130706433", "0177.0.0.1", "0x7f.1" and "127.1" are all 127.0.0.1. IPv6 fully, compressed forms
 * and a dotted IPv4 tail included; an IPv4 address carried inside an IPv6 one (mapped, compatible,
 * translated, NAT64, 6to4) is judged as that IPv4 address. The ranges are IANA's special-purpose
 * registries (RFC 6890 and its updates), a superset of n8n's own default SSRF block list
 * (@n8n/config SSRF_DEFAULT_BLOCKED_IP_RANGES).
 */

/** An IP address as numbers: IPv4 one 32-bit number, IPv6 eight 16-bit groups. */
export type IpAddress = { version: 4; value: number } | { version: 6; groups: number[] };

/** [first address, prefix length, why]: the IPv4 ranges no document is fetched from. */
const IPV4_RANGES: Array<[string, number, string]> = [
	['0.0.0.0', 8, 'an unspecified address ("this network": it reaches n8n’s own machine)'],
	['10.0.0.0', 8, 'a private network address'],
	[
		'100.64.0.0',
		10,
		'a shared (carrier-grade NAT) address, where some clouds answer metadata requests',
	],
	['127.0.0.0', 8, 'a loopback address (n8n’s own machine)'],
	['169.254.0.0', 16, 'a link-local address, where cloud metadata services answer'],
	['172.16.0.0', 12, 'a private network address'],
	['192.0.0.0', 24, 'a reserved address (IETF protocol assignments)'],
	['192.0.2.0', 24, 'a reserved address (documentation)'],
	['192.168.0.0', 16, 'a private network address'],
	['198.18.0.0', 15, 'a reserved address (network benchmarking)'],
	['198.51.100.0', 24, 'a reserved address (documentation)'],
	['203.0.113.0', 24, 'a reserved address (documentation)'],
	['224.0.0.0', 4, 'a multicast address'],
	['240.0.0.0', 4, 'a reserved address (or the broadcast address)'],
];

/** The IPv6 ranges no document is fetched from (those that carry IPv4 are handled apart). */
const IPV6_RANGES: Array<[string, number, string]> = [
	['fe80::', 10, 'a link-local IPv6 address'],
	['fec0::', 10, 'a site-local IPv6 address (a private network)'],
	[
		'fc00::',
		7,
		'a unique-local IPv6 address (a private network, where some cloud metadata services answer)',
	],
	['ff00::', 8, 'a multicast IPv6 address'],
	['2001:db8::', 32, 'a reserved IPv6 address (documentation)'],
];

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits, by the name of the form. */
const IPV4_IN_IPV6: Array<[string, number, string]> = [
	['::ffff:0:0', 96, 'IPv4-mapped IPv6'],
	['::ffff:0:0:0', 96, 'IPv4-translated IPv6'],
	['64:ff9b::', 96, 'NAT64 IPv6'],
	['::', 96, 'IPv4-compatible IPv6'],
];

/** Names only a local network resolves (RFC 6761, RFC 6762, RFC 8375, ICANN's .internal). */
const LOCAL_SUFFIXES = ['local', 'internal', 'home.arpa', 'localdomain'];

/**
 * Why `hostname` (a URL's hostname as WHATWG URL gives it: IPv6 in brackets, IPv4 dotted, names in
 * lower case and punycode) is where a document never lives, or undefined for a public host.
 */
export function whyInternal(hostname: string): string | undefined {
	const host = hostname.toLowerCase();
	if (host.startsWith('[') && host.endsWith(']')) {
		const ip = parseIpv6(host.slice(1, -1));
		// WHATWG URL accepts no other bracketed host; an unreadable one is refused, not guessed at.
		return ip ? whyInternalIp({ version: 6, groups: ip }) : 'an IPv6 address that cannot be read';
	}
	const name = host.replace(/\.+$/, '');
	const v4 = parseIpv4(name);
	if (v4 !== undefined) return whyInternalIp({ version: 4, value: v4 });
	if (name.includes(':')) {
		const v6 = parseIpv6(name);
		if (v6) return whyInternalIp({ version: 6, groups: v6 });
	}
	return whyInternalName(name);
}

/**
 * Whether `hostname` (a URL's hostname, as for whyInternal) names the machine it is used on:
 * localhost, or a loopback or unspecified address in any spelling (IPv4 carried in IPv6 too).
 */
export function namesOwnMachine(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.+$/, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return true;
	const ip = parseIp(host);
	if (!ip) return false;
	const v4 = ip.version === 4 ? ip.value : carriedIpv4(ip.groups)?.value;
	if (v4 === undefined) return false;
	return inRange4(v4, parseIpv4('127.0.0.0')!, 8) || inRange4(v4, 0, 8);
}

/** Why the address (as DNS or a URL gives it: "10.0.0.1", "::1", "[::1]") is internal, or undefined. */
export function whyInternalAddress(address: string): string | undefined {
	const ip = parseIp(address);
	return ip ? whyInternalIp(ip) : undefined;
}

/** Why a host name (not an address) is local, or undefined. */
function whyInternalName(name: string): string | undefined {
	if (name === '') return 'an empty host';
	if (name === 'localhost' || name.endsWith('.localhost')) {
		return 'a name of n8n’s own machine (localhost)';
	}
	if (!name.includes('.')) {
		return 'a single-label name (an intranet host such as "fileserver" or "metadata")';
	}
	const suffix = LOCAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
	if (suffix) return `a local network name (.${suffix})`;
	return undefined;
}

export function whyInternalIp(ip: IpAddress): string | undefined {
	if (ip.version === 4) {
		for (const [first, prefix, why] of IPV4_RANGES) {
			if (inRange4(ip.value, parseIpv4(first)!, prefix)) return why;
		}
		return undefined;
	}
	const { groups } = ip;
	if (groups.every((g) => g === 0)) return 'an unspecified address (::, n8n’s own machine)';
	if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) {
		return 'a loopback address (::1, n8n’s own machine)';
	}
	const carried = carriedIpv4(groups);
	if (carried) {
		const why = whyInternalIp({ version: 4, value: carried.value });
		return why && `${why}, written as ${carried.form} (${formatIpv4(carried.value)})`;
	}
	for (const [first, prefix, why] of IPV6_RANGES) {
		if (inRange6(groups, parseIpv6(first)!, prefix)) return why;
	}
	return undefined;
}

/** The IPv4 address an IPv6 address carries (mapped, translated, NAT64, compatible, 6to4). */
export function carriedIpv4(groups: number[]): { value: number; form: string } | undefined {
	for (const [first, prefix, form] of IPV4_IN_IPV6) {
		if (inRange6(groups, parseIpv6(first)!, prefix)) {
			return { value: groups[6] * 0x10000 + groups[7], form };
		}
	}
	if (groups[0] === 0x2002) return { value: groups[1] * 0x10000 + groups[2], form: '6to4 IPv6' };
	return undefined;
}

/** An IP address in any spelling ("127.1", "::ffff:127.0.0.1", "[::1]"), or undefined. */
export function parseIp(text: string): IpAddress | undefined {
	const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
	if (bare.includes(':')) {
		const groups = parseIpv6(bare);
		return groups ? { version: 6, groups } : undefined;
	}
	const value = parseIpv4(bare.replace(/\.$/, ''));
	return value === undefined ? undefined : { version: 4, value };
}

/**
 * An IPv4 address as WHATWG URL's IPv4 parser reads a host, or undefined when `text` is not one:
 * up to four parts, each decimal, octal (leading 0) or hexadecimal (0x); every part but the last
 * one byte, the last the remaining bytes ("127.1" is 127.0.0.1, "2130706433" too).
 */
export function parseIpv4(text: string): number | undefined {
	const parts = text.split('.');
	if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
	if (parts.length === 0 || parts.length > 4) return undefined;
	const numbers: number[] = [];
	for (const part of parts) {
		const n = parseIpv4Number(part);
		if (n === undefined) return undefined;
		numbers.push(n);
	}
	const last = numbers.pop()!;
	if (numbers.some((n) => n > 255)) return undefined;
	if (last >= 256 ** (4 - numbers.length)) return undefined;
	return numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), last);
}

function parseIpv4Number(part: string): number | undefined {
	if (part === '') return undefined;
	let digits = part;
	let pattern = /^[0-9]+$/;
	let radix = 10;
	if (/^0x/i.test(part)) {
		digits = part.slice(2);
		pattern = /^[0-9a-f]*$/i;
		radix = 16;
	} else if (part.length > 1 && part.startsWith('0')) {
		digits = part.slice(1);
		pattern = /^[0-7]+$/;
		radix = 8;
	}
	if (!pattern.test(digits)) return undefined;
	if (digits === '') return 0;
	// Long runs of leading zeros are still numbers; beyond 2^32 the address is invalid anyway.
	const value = parseInt(digits.replace(/^0+(?=.)/, ''), radix);
	return Number.isSafeInteger(value) ? value : undefined;
}

/** An IPv6 address (without brackets or zone) as eight 16-bit groups, or undefined. */
export function parseIpv6(text: string): number[] | undefined {
	if (!/^[0-9a-f:.]+$/i.test(text)) return undefined;
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const readGroups = (half: string): number[] | undefined => {
		if (half === '') return [];
		const out: number[] = [];
		const pieces = half.split(':');
		for (let i = 0; i < pieces.length; i++) {
			const piece = pieces[i];
			if (i === pieces.length - 1 && piece.includes('.')) {
				// A dotted tail is strict: four decimal bytes, no leading zeros (RFC 4291 2.2, WHATWG).
				const bytes = piece.split('.');
				if (bytes.length !== 4 || bytes.some((b) => !/^(0|[1-9]\d{0,2})$/.test(b) || +b > 255)) {
					return undefined;
				}
				const [a, b, c, d] = bytes.map(Number);
				out.push(a * 256 + b, c * 256 + d);
				continue;
			}
			if (!/^[0-9a-f]{1,4}$/i.test(piece)) return undefined;
			out.push(parseInt(piece, 16));
		}
		return out;
	};
	const head = readGroups(halves[0]);
	const tail = halves.length === 2 ? readGroups(halves[1]) : [];
	if (!head || !tail) return undefined;
	if (halves.length === 1) return head.length === 8 ? head : undefined;
	const missing = 8 - head.length - tail.length;
	if (missing < 1) return undefined;
	return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

export function inRange4(value: number, first: number, prefix: number): boolean {
	if (prefix === 0) return true;
	const size = 2 ** (32 - prefix);
	return Math.floor(value / size) === Math.floor(first / size);
}

export function inRange6(groups: number[], first: number[], prefix: number): boolean {
	for (let i = 0, left = prefix; left > 0; i++, left -= 16) {
		const bits = Math.min(16, left);
		const mask = (0xffff << (16 - bits)) & 0xffff;
		if ((groups[i] & mask) !== (first[i] & mask)) return false;
	}
	return true;
}

export function formatIpv4(value: number): string {
	return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
