/**
 * Invites area (Processing v1, tag Invites): CreateInvite, a multipart/form-data request with a
 * JSON `Model` (CreateAdminInviteData: `email` and `tenantName` required) and an optional `File`;
 * 200 without a body, 400 and 403 as ProblemDetails. The OpenAPI document says "To access this
 * method, you need to contact support": the simulator lets Tenant Administrators invite (inferred)
 * and keeps every invite for tests to inspect.
 */
import { problem, route, type Reply, type RequestContext, type Route } from '../http';
import { receiveUpload } from '../processing/uploads';
import * as S from '../schemas';

/** Kestrel's default request body limit. */
const MAX_INVITE_BYTES = 30_000_000;
/** .NET's TimeSpan text: [-][d.]hh:mm[:ss[.fffffff]]. */
const TIME_SPAN = /^-?(\d+\.)?\d{1,2}:\d{2}(:\d{2}(\.\d{1,7})?)?$/;

export interface Invite {
	email: string;
	tenantName: string;
	validWithin: string | null;
	useMySubscription: boolean;
	tenantDescription: string | null;
	/** The File part, if one was sent: its name, size and sha256. */
	file: { name: string; size: number; sha256: string } | null;
	/** The user who invited. */
	invitedBy: string;
}

export class InvitesArea {
	readonly routes: Route[];
	readonly invites: Invite[] = [];

	constructor() {
		this.routes = [
			route('CreateInvite', 'POST', '/api/publicapi/v1/invites', (c) => this.create(c), {
				stream: true,
			}),
		];
	}

	private async create(ctx: RequestContext): Promise<Reply> {
		const upload = await receiveUpload(ctx, S.CreateAdminInviteData, MAX_INVITE_BYTES, 'File');
		const user = ctx.user;
		if (!user?.roles.includes('TenantAdministrator')) {
			throw problem(403, 'Forbidden', 'You are not allowed to invite new tenants.');
		}
		const model = upload.model;
		if (!model) {
			throw problem(400, 'One or more validation errors occurred.', undefined, {
				errors: { Model: ['The Model field is required.'] },
			});
		}
		if (model.validWithin && !TIME_SPAN.test(model.validWithin)) {
			throw problem(400, 'One or more validation errors occurred.', undefined, {
				errors: {
					'$.validWithin': [
						'The JSON value could not be converted to System.Nullable`1[System.TimeSpan].',
					],
				},
			});
		}
		const [file] = upload.files;
		this.invites.push({
			email: model.email,
			tenantName: model.tenantName,
			validWithin: model.validWithin ?? null,
			useMySubscription: model.useMySubscription ?? false,
			tenantDescription: model.tenantDescription ?? null,
			file: file ? { name: file.sentName, size: file.size, sha256: file.sha256 } : null,
			invitedBy: user.username,
		});
		return { status: 200, empty: true };
	}
}
