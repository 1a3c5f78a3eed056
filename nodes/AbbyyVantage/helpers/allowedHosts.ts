import { carriedIpv4, inRange4, inRange6, parseIp, type IpAddress } from './internalAddress';

/**
 * Allowed Internal Hosts: the internal hosts File URL may fetch from all the same, as the user
 * lists them: exact names (files.corp.example.com), `*.suffix` wildcards (a name's subdomains, not
 * the name itself, as n8n's own N8N_SSRF_ALLOWED_HOSTNAMES reads them), IP addresses in any
 * spelling and CIDR ranges; each optionally with `:port`, so that one server on a host can be
 * let through and not its neighbour. IPv6 with a port is bracketed: `[fd00::1]:8443`.
 */
export interface AllowedHost {
	/** The entry as the user wrote it, for messages. */
	entry: string;
	/** Only this port (the link's, or 80/443 for http/https without one); any when absent. */
	port?: number;
	match:
		| { kind: 'name'; name: string }
		| { kind: 'suffix'; suffix: string }
		| { kind: 'range'; ip: IpAddress; prefix: number };
}

/** An entry that is not a host, an address or a range, and why. */
export interface BadEntry {
	entry: string;
	why: string;
}

/** The list as the parameter holds it: entries separated by commas, spaces or new lines. */
export function parseAllowedHosts(text: string): AllowedHost[] | BadEntry {
	const out: AllowedHost[] = [];
	for (const entry of text.split(/[\s,;]+/).filter(Boolean)) {
		const parsed = parseEntry(entry);
		if ('why' in parsed) return parsed;
		out.push(parsed);
	}
	return out;
}

function bad(entry: string, why: string): BadEntry {
	return { entry, why };
}

function parseEntry(entry: string): AllowedHost | BadEntry {
	const text = entry.toLowerCase();
	if (text.includes('://'))
		return bad(entry, 'is a link: write only its host (e.g. files.corp.example.com)');
	let host = text;
	let portText: string | undefined;
	const bracketed = /^\[([^\]]*)\](\/\d*)?(?::(.*))?$/.exec(text);
	if (bracketed) {
		host = bracketed[1] + (bracketed[2] ?? '');
		portText = bracketed[3];
		if (!host.includes(':'))
			return bad(entry, 'has brackets around something that is not an IPv6 address');
	} else if ((text.match(/:/g) ?? []).length === 1) {
		[host, portText] = text.split(':');
	}
	let port: number | undefined;
	if (portText !== undefined) {
		if (!/^\d{1,5}$/.test(portText) || +portText < 1 || +portText > 65535) {
			return bad(entry, 'has a port that is not a number from 1 to 65535');
		}
		port = +portText;
	}
	if (host === '') return bad(entry, 'names no host');
	if (host.includes('/')) {
		const [address, prefixText, ...rest] = host.split('/');
		const ip = parseIp(address);
		if (!ip || rest.length)
			return bad(entry, 'is not a CIDR range (e.g. 10.20.0.0/16 or fd00::/8)');
		const bits = ip.version === 4 ? 32 : 128;
		if (!/^\d{1,3}$/.test(prefixText) || +prefixText > bits) {
			return bad(entry, `has a prefix length that is not a number from 0 to ${bits}`);
		}
		return { entry, port, match: canonicalRange(ip, +prefixText) };
	}
	const ip = parseIp(host);
	if (ip) return { entry, port, match: canonicalRange(ip, ip.version === 4 ? 32 : 128) };
	if (host.includes(':'))
		return bad(entry, 'is not an IPv6 address (with a port, write [address]:port)');
	if (host === '*' || host === '*.') {
		return bad(entry, 'allows every host: list the hosts or ranges themselves');
	}
	const wildcard = host.startsWith('*.');
	const name = normalName(wildcard ? host.slice(2) : host);
	if (!name) return bad(entry, 'is not a host name, an IP address or a CIDR range');
	if (wildcard) {
		if (parseIp(name)) return bad(entry, 'puts a wildcard before an address: write a CIDR range');
		return { entry, port, match: { kind: 'suffix', suffix: name } };
	}
	// A name WHATWG URL reads as an address ("2130706433" is 127.0.0.1) is that address.
	const asIp = parseIp(name);
	if (asIp) return { entry, port, match: canonicalRange(asIp, 32) };
	return { entry, port, match: { kind: 'name', name } };
}

/** A host name as a link's hostname would read (lower case, punycode, no trailing dot), or ''. */
function normalName(text: string): string {
	if (/[^\w.\-\u0080-\uffff]/.test(text)) return '';
	let hostname: string;
	try {
		hostname = new URL(`http://${text}/`).hostname;
	} catch {
		return '';
	}
	const name = hostname.replace(/\.+$/, '');
	return /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name) || parseIp(name) ? name : '';
}

/** An address or range with IPv4-mapped IPv6 (::ffff:a.b.c.d) read as the IPv4 it is. */
function canonicalRange(ip: IpAddress, prefix: number): AllowedHost['match'] {
	const v4 = mappedIpv4(ip);
	if (v4 !== undefined && prefix >= 96) {
		return { kind: 'range', ip: { version: 4, value: v4 }, prefix: prefix - 96 };
	}
	return { kind: 'range', ip, prefix };
}

function mappedIpv4(ip: IpAddress): number | undefined {
	if (ip.version === 4) return undefined;
	const carried = carriedIpv4(ip.groups);
	return carried?.form === 'IPv4-mapped IPv6' ? carried.value : undefined;
}

/** The port a link connects to: its own, else the scheme's. */
export function portOf(url: URL): number {
	return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Whether the user listed the link's host (and port). */
export function allowsHost(hosts: AllowedHost[], url: URL): boolean {
	const port = portOf(url);
	const ip = parseIp(url.hostname);
	if (ip) return allowsAddress(hosts, ip, port);
	const name = url.hostname.toLowerCase().replace(/\.+$/, '');
	return hosts.some(
		(h) =>
			(h.port === undefined || h.port === port) &&
			((h.match.kind === 'name' && h.match.name === name) ||
				(h.match.kind === 'suffix' && name.endsWith(`.${h.match.suffix}`))),
	);
}

/** Whether the user listed this address (and port), e.g. one a link's name resolved to. */
export function allowsAddress(hosts: AllowedHost[], address: IpAddress, port: number): boolean {
	const v4 = mappedIpv4(address);
	const ip: IpAddress = v4 === undefined ? address : { version: 4, value: v4 };
	return hosts.some((h) => {
		if (h.port !== undefined && h.port !== port) return false;
		const { match } = h;
		if (match.kind !== 'range') return false;
		if (match.ip.version === 4)
			return ip.version === 4 && inRange4(ip.value, match.ip.value, match.prefix);
		return ip.version === 6 && inRange6(ip.groups, match.ip.groups, match.prefix);
	});
}
