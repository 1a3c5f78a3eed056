/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals --
 * End-to-end infrastructure, never shipped: an SMTP server on loopback that keeps what it is sent. */
/**
 * The mailbox of the approver in the human-review example (examples/catalog-agent.json): a plain
 * SMTP server on loopback (RFC 5321's commands a client such as n8n's nodemailer sends: EHLO or
 * HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no authentication, as the suite's SMTP
 * credential asks for none) that keeps every message, decoded far enough to read its links.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface Mail {
	from: string;
	to: string[];
	/** The message as sent (headers and MIME body). */
	raw: string;
	subject: string;
	/** The body's text with quoted-printable undone and HTML's entities decoded (`&amp;` in links). */
	body: string;
	/** Every http(s) link in the body, in order. */
	links: string[];
}

/** Quoted-printable (RFC 2045 6.7): soft line breaks removed, =XX decoded as UTF-8 bytes. */
function unquote(text: string): string {
	const joined = text.replace(/=\r?\n/g, '');
	const bytes: number[] = [];
	for (let i = 0; i < joined.length; i++) {
		const hex = joined.slice(i + 1, i + 3);
		if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else bytes.push(...Buffer.from(joined[i], 'utf8'));
	}
	return Buffer.from(bytes).toString('utf8');
}

function decode(raw: string): { subject: string; body: string; links: string[] } {
	const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
	const quoted = /Content-Transfer-Encoding: quoted-printable/i.test(raw);
	const base64Parts = [
		...raw.matchAll(
			/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi,
		),
	];
	let body = quoted ? unquote(raw) : raw;
	body = body
		.replace(/&quot;/g, '"')
		.replace(/&#(?:39|x27);/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>');
	for (const [, data] of base64Parts)
		body += `\n${Buffer.from(data.replace(/\s/g, ''), 'base64').toString('utf8')}`;
	const links = [...body.matchAll(/href="(https?:\/\/[^"]+)"/g)].map(([, href]) =>
		href.replace(/&amp;/g, '&'),
	);
	return { subject, body, links };
}

export class SmtpSink {
	readonly mails: Mail[] = [];
	private server?: Server;
	private readonly sockets = new Set<Socket>();
	private waiters: Array<() => void> = [];
	port = 0;

	async start(): Promise<number> {
		this.server = createServer((socket) => this.session(socket));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.port = (this.server.address() as AddressInfo).port;
		return this.port;
	}

	async stop(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	/** The first mail (in arrival order, from `from` on) that `match` accepts; waits up to `timeoutMs`. */
	async waitFor(match: (mail: Mail) => boolean, timeoutMs: number, from = 0): Promise<Mail> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = this.mails.slice(from).find(match);
			if (found) return found;
			const left = deadline - Date.now();
			if (left <= 0) {
				throw new Error(
					`no such mail within ${timeoutMs} ms; received: ${this.mails.map((m) => m.subject).join(' | ') || 'none'}`,
				);
			}
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.min(left, 1000));
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	private session(socket: Socket): void {
		this.sockets.add(socket);
		socket.on('close', () => this.sockets.delete(socket));
		socket.on('error', () => undefined);
		let buffer = '';
		let data: string | undefined;
		let from = '';
		let to: string[] = [];
		const say = (line: string) => socket.write(`${line}\r\n`);
		say('220 127.0.0.1 ESMTP e2e mailbox');
		socket.on('data', (chunk: Buffer) => {
			buffer += chunk.toString('utf8');
			for (;;) {
				if (data !== undefined) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end === -1) return;
					data += buffer.slice(0, end);
					buffer = buffer.slice(end + 5);
					// Dot-stuffing (RFC 5321 4.5.2): a line's leading dot was doubled.
					const raw = data.replace(/\r\n\.\./g, '\r\n.');
					this.mails.push({ from, to, raw, ...decode(raw) });
					for (const wake of this.waiters.splice(0)) wake();
					data = undefined;
					say('250 2.0.0 kept');
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline === -1) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') socket.write('250-127.0.0.1\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
				else if (verb === 'HELO') say('250 127.0.0.1');
				else if (verb === 'MAIL') {
					from = /<([^>]*)>/.exec(line)?.[1] ?? '';
					to = [];
					say('250 2.1.0 OK');
				} else if (verb === 'RCPT') {
					to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
					say('250 2.1.5 OK');
				} else if (verb === 'DATA') {
					data = '';
					say('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'RSET' || verb === 'NOOP') say('250 2.0.0 OK');
				else if (verb === 'QUIT') {
					say('221 2.0.0 bye');
					socket.end();
				} else say('502 5.5.2 not implemented');
			}
		});
	}
}
