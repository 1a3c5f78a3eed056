import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { runsAsTool } from '../../agent/mode';
import { parseAllowedHosts } from '../../helpers/allowedHosts';
import { invalid } from '../../helpers/errors';
import {
	internalHostAdvice,
	internalHostRefusal,
	notFetched,
	parseFileUrl,
	refusedLink,
	type AllowedInternalHosts,
} from '../../helpers/fileUrl';
import { describeValue, requireInteger, requireText } from '../../helpers/validation';
import {
	FILE_URL_DEFAULT_MAX_MB,
	FILE_URL_MAX_CHARS,
	FILE_URL_MAX_REDIRECTS,
	MAX_UPLOAD_BYTES,
} from '../../constants';

/**
 * Input Files → File URL: the link, the largest file the node downloads from it, and the internal
 * hosts it may fetch from although they are internal.
 */
const MB = 1024 * 1024;

const ALLOWED_INTERNAL_HOSTS = 'Allowed Internal Hosts';

export const fileUrlProperties: INodeProperties[] = [
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://storage.example.com/invoices/4711.pdf',
		description: `An http or https link to the file, e.g. a presigned S3, Azure or Google Cloud Storage link. The node downloads it (following up to ${FILE_URL_MAX_REDIRECTS} redirects) and names it as the answer's Content-Disposition does, else after the link's last path segment. Links to internal addresses (this machine, private networks, cloud metadata) are refused unless listed in ${ALLOWED_INTERNAL_HOSTS}; at most ${FILE_URL_MAX_CHARS} characters.`,
		displayOptions: { show: { inputFiles: ['url'] } },
	},
	{
		displayName: 'Max File Size (MB)',
		name: 'maxFileSizeMb',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_UPLOAD_BYTES / MB },
		default: FILE_URL_DEFAULT_MAX_MB,
		description:
			'A larger file is not downloaded (the download stops once it passes this size), and nothing is sent to Vantage',
		displayOptions: { show: { inputFiles: ['url'] } },
	},
	{
		displayName: ALLOWED_INTERNAL_HOSTS,
		name: 'allowedInternalHosts',
		type: 'string',
		default: '',
		placeholder: 'e.g. files.corp.example.com, 10.20.0.0/16, 127.0.0.1:8080',
		description:
			'Internal hosts File URL may fetch from, separated by commas: names (files.corp.example.com), wildcards (*.corp.example.com: its subdomains), IP addresses and CIDR ranges (10.20.0.0/16, fd00::/8), each optionally with :port to allow one server only ([fd00::1]:8443 for IPv6). Loopback, private, link-local (cloud metadata) and other internal addresses, and local names (localhost, single-label names, .local, .internal), are refused unless listed here. Public hosts need no entry. When the node runs as a tool, only a fixed value counts, not an expression.',
		displayOptions: { show: { inputFiles: ['url'] } },
	},
];

/** Whether item `itemIndex` takes its file from a link. */
export function usesFileUrl(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return ctx.getNodeParameter('inputFiles', itemIndex, 'selected') === 'url';
}

/** An item's link with the internal hosts it may reach. */
export interface FileLink {
	url: URL;
	allowed: AllowedInternalHosts;
}

/**
 * The item's link, checked before any request: http or https, not too long, and not to an
 * internal host the user did not list. Each refusal names the item. What a name resolves to and
 * where a redirect leads are checked as the download runs (transport/download.ts).
 */
export function readFileLink(ctx: IExecuteFunctions, itemIndex: number): FileLink {
	const text = requireText(
		ctx,
		itemIndex,
		'File URL',
		ctx.getNodeParameter('fileUrl', itemIndex, ''),
	);
	const url = parseFileUrl(text);
	if (typeof url === 'string') {
		throw invalid(
			ctx,
			itemIndex,
			`File URL ${url}`,
			'Give a link that starts with http:// or https://, e.g. a presigned storage link. Other schemes (file, ftp, data…) are never fetched.',
		);
	}
	const allowed = readAllowedInternalHosts(ctx, itemIndex);
	const refusal = internalHostRefusal(url, allowed);
	if (refusal) {
		throw refusedLink(
			invalid(ctx, itemIndex, notFetched(url, undefined, refusal), internalHostAdvice(allowed)),
			'internal',
		);
	}
	return { url, allowed };
}

/**
 * Allowed Internal Hosts for the item. Read per item in a workflow (an expression may differ per
 * item). When the node runs as a tool, only the fixed value in the node counts, read raw as the
 * destructive-operation guard reads its switches (agent/run.ts): an expression, `$fromAI()`
 * included, could be filled by the model, which may follow instructions hidden in a document.
 */
export function readAllowedInternalHosts(
	ctx: IExecuteFunctions,
	itemIndex: number,
): AllowedInternalHosts {
	let value: unknown;
	if (runsAsTool(ctx)) {
		value = ctx.getNode().parameters.allowedInternalHosts ?? '';
		if (typeof value === 'string' && value.startsWith('=')) {
			return {
				hosts: [],
				note: `(${ALLOWED_INTERNAL_HOSTS} is set by an expression, which does not count when the node runs as a tool: the model could fill it. A person must write the hosts in the node as a fixed value.)`,
			};
		}
	} else {
		value = ctx.getNodeParameter('allowedInternalHosts', itemIndex, '');
	}
	if (value === undefined || value === null) value = '';
	if (typeof value !== 'string') {
		throw refusedLink(
			invalid(
				ctx,
				itemIndex,
				`${ALLOWED_INTERNAL_HOSTS} must be text, not ${describeValue(value)}`,
			),
			'setting',
		);
	}
	const hosts = parseAllowedHosts(value);
	if ('why' in hosts) {
		throw refusedLink(
			invalid(
				ctx,
				itemIndex,
				`${ALLOWED_INTERNAL_HOSTS}: ${describeValue(hosts.entry)} ${hosts.why}`,
				'List host names (files.corp.example.com), wildcards (*.corp.example.com), IP addresses (10.20.0.5) or CIDR ranges (10.20.0.0/16), each optionally with :port, separated by commas.',
			),
			'setting',
		);
	}
	return { hosts };
}

export function readMaxFileBytes(ctx: IExecuteFunctions, itemIndex: number): number {
	const mb = requireInteger(
		ctx,
		itemIndex,
		'Max File Size (MB)',
		ctx.getNodeParameter('maxFileSizeMb', itemIndex, FILE_URL_DEFAULT_MAX_MB),
		1,
		MAX_UPLOAD_BYTES / MB,
	);
	return mb * MB;
}
