/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/require-node-api-error --
 * End-to-end infrastructure, never shipped: a real IMAP server on loopback. */
/**
 * A real IMAP server for n8n's Email Trigger (IMAP): Debian's Dovecot (`apt-get install
 * dovecot-imapd`), started by the suite on 127.0.0.1 with a configuration of its own in a
 * temporary folder (one mailbox, a password from a file, Maildir, no TLS), stopped by its process
 * id. Mail is delivered by Dovecot's own delivery agent (dovecot-lda), as a mail server hands it
 * over, and read back from the Maildir (`cur/…:2,S` once a client marked it read).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
	chmodSync,
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { freePort } from './n8n';

const DOVECOT = ['/usr/sbin/dovecot', '/usr/local/sbin/dovecot'];
const LDA = ['/usr/lib/dovecot/dovecot-lda', '/usr/libexec/dovecot/dovecot-lda'];

/** Dovecot's binaries, when installed. */
export function dovecot(): { server: string; lda: string } | undefined {
	const server = DOVECOT.find((path) => existsSync(path));
	const lda = LDA.find((path) => existsSync(path));
	return server && lda ? { server, lda } : undefined;
}

export interface MailServer {
	host: string;
	port: number;
	user: string;
	password: string;
	/** Deliver one message (RFC 5322 text) to the mailbox, as a mail server would. */
	deliver(message: string, from: string): void;
	/**
	 * Wait until a client of the mailbox waits in IDLE (Dovecot names the command a session runs
	 * in its process title): mail delivered from then on reaches it as news, while mail delivered
	 * before its SELECT is what the mailbox already held.
	 */
	idling(timeoutMs: number): Promise<void>;
	/** The mailbox's messages on disk: unread (new/, or cur/ without the S flag) and read. */
	messages(): { unread: string[]; read: string[] };
	/** Dovecot's log so far. */
	log(): string;
	stop(): Promise<void>;
}

/** A user's id or primary group id, via `id` (as root: Dovecot refuses mail access as uid 0). */
function idOf(flag: '-u' | '-g', name: string): number {
	const out = spawnSync('id', [flag, name], { encoding: 'utf8' });
	if (out.status !== 0) throw new Error(`no user ${name}`);
	return Number(out.stdout.trim());
}

/** The commands Dovecot's IMAP sessions of `user` run now, from their process titles (Linux). */
function sessionCommands(user: string): string[] {
	const commands: string[] = [];
	for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		let title: string;
		try {
			title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
		} catch {
			continue;
		}
		// "dovecot/imap [<user> <ip> <command>]"
		const match = /^dovecot\/imap \[(\S+) \S+ ?(.*)\]$/.exec(title);
		if (match && match[1] === user) commands.push(match[2] || '(waiting)');
	}
	return commands;
}

async function greeting(port: number, timeoutMs: number, server: ChildProcess): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (server.exitCode !== null) throw new Error(`dovecot exited (${server.exitCode})`);
		const ok = await new Promise<boolean>((resolve) => {
			const socket = connect(port, '127.0.0.1');
			socket.once('data', (data) => {
				socket.destroy();
				resolve(data.toString().startsWith('* OK'));
			});
			socket.once('error', () => resolve(false));
		});
		if (ok) return;
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`dovecot did not greet on 127.0.0.1:${port}`);
}

/** Start Dovecot on a free loopback port with one mailbox. */
export async function startMailServer(
	user = `invoices-${randomUUID().slice(0, 8)}@example.test`,
): Promise<MailServer> {
	const binaries = dovecot();
	if (!binaries) throw new Error('Dovecot is not installed (apt-get install dovecot-imapd)');
	const password = randomUUID();
	const port = await freePort();
	const root = process.getuid?.() === 0;
	const me = userInfo().username;
	// As root, Dovecot runs its internal processes as the users its package made and mail as
	// nobody; otherwise everything as the user running the suite.
	const mailUid = root ? idOf('-u', 'nobody') : userInfo().uid;
	const mailGid = root ? idOf('-g', 'nobody') : userInfo().gid;
	// Short paths: Dovecot's sockets live under base_dir (108 characters at most for a socket).
	const dir = mkdtempSync(join(tmpdir(), 'va-imap-'));
	chmodSync(dir, 0o755);
	const mail = join(dir, 'mail');
	mkdirSync(mail);
	if (root) chownSync(mail, mailUid, mailGid);
	writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${password}\n`, { mode: 0o644 });
	const conf = join(dir, 'dovecot.conf');
	writeFileSync(
		conf,
		[
			'protocols = imap',
			'listen = 127.0.0.1',
			`base_dir = ${join(dir, 'run')}`,
			`state_dir = ${join(dir, 'state')}`,
			`log_path = ${join(dir, 'dovecot.log')}`,
			'ssl = no',
			'disable_plaintext_auth = no',
			'auth_mechanisms = plain login',
			`default_internal_user = ${root ? 'dovecot' : me}`,
			`default_login_user = ${root ? 'dovenull' : me}`,
			'first_valid_uid = 1',
			// Process titles name each session's user and current command (idling() reads them).
			'verbose_proctitle = yes',
			'passdb {',
			'  driver = passwd-file',
			`  args = scheme=PLAIN username_format=%u ${join(dir, 'users')}`,
			'}',
			'userdb {',
			'  driver = static',
			`  args = uid=${mailUid} gid=${mailGid} home=${mail}/%u`,
			'}',
			'mail_location = maildir:~/Maildir',
			'service imap-login {',
			'  inet_listener imap {',
			'    address = 127.0.0.1',
			`    port = ${port}`,
			'  }',
			'  inet_listener imaps {',
			'    port = 0',
			'  }',
			'}',
			'',
		].join('\n'),
	);
	const server = spawn(binaries.server, ['-F', '-c', conf], { stdio: 'ignore' });
	const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
	const readLog = () => {
		const path = join(dir, 'dovecot.log');
		return existsSync(path) ? readFileSync(path, 'utf8') : '';
	};
	try {
		await greeting(port, 15_000, server);
	} catch (error) {
		server.kill('SIGKILL');
		const log = readLog();
		rmSync(dir, { recursive: true, force: true });
		throw new Error(`${(error as Error).message}\n${log}`);
	}
	const maildir = join(mail, user, 'Maildir');
	return {
		host: '127.0.0.1',
		port,
		user,
		password,
		deliver(message, from) {
			const out = spawnSync(binaries.lda, ['-c', conf, '-d', user, '-f', from], {
				input: message,
				encoding: 'utf8',
			});
			if (out.status !== 0)
				throw new Error(`dovecot-lda exited ${out.status}: ${out.stderr}\n${readLog()}`);
		},
		async idling(timeoutMs) {
			const deadline = Date.now() + timeoutMs;
			while (Date.now() < deadline) {
				if (sessionCommands(user).includes('IDLE')) return;
				await new Promise((r) => setTimeout(r, 200));
			}
			throw new Error(
				`no client of ${user} in IDLE within ${timeoutMs / 1000} s (sessions: ${sessionCommands(user).join(', ') || 'none'})\n${readLog()}`,
			);
		},
		messages() {
			const list = (folder: string) =>
				existsSync(join(maildir, folder)) ? readdirSync(join(maildir, folder)) : [];
			const cur = list('cur');
			// Maildir flags follow ":2,"; S is Seen.
			const seen = (name: string) => /:2,[A-Z]*S/.test(name);
			return {
				unread: [...list('new'), ...cur.filter((name) => !seen(name))],
				read: cur.filter(seen),
			};
		},
		log: readLog,
		async stop() {
			if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
			const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
			await exited;
			clearTimeout(timer);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** One file attached to a message. */
export interface Attachment {
	fileName: string;
	contentType: string;
	content: Buffer;
}

/** An RFC 5322 message with a text part and the attachments (base64), CRLF line ends. */
export function mimeMessage(message: {
	from: string;
	to: string;
	subject: string;
	date: Date;
	text: string;
	attachments: Attachment[];
}): string {
	const boundary = `----=_va_${randomUUID()}`;
	const base64 = (bytes: Buffer) => bytes.toString('base64').replace(/.{1,76}/g, '$&\r\n');
	const lines = [
		`From: ${message.from}`,
		`To: ${message.to}`,
		`Subject: ${message.subject}`,
		`Date: ${message.date.toUTCString().replace('GMT', '+0000')}`,
		`Message-ID: <${randomUUID()}@example.test>`,
		'MIME-Version: 1.0',
		`Content-Type: multipart/mixed; boundary="${boundary}"`,
		'',
		`--${boundary}`,
		'Content-Type: text/plain; charset=utf-8',
		'Content-Transfer-Encoding: 8bit',
		'',
		message.text,
	];
	for (const attachment of message.attachments) {
		lines.push(
			`--${boundary}`,
			`Content-Type: ${attachment.contentType}; name="${attachment.fileName}"`,
			`Content-Disposition: attachment; filename="${attachment.fileName}"`,
			'Content-Transfer-Encoding: base64',
			'',
			base64(attachment.content).trimEnd(),
		);
	}
	lines.push(`--${boundary}--`, '');
	return lines.join('\r\n');
}
