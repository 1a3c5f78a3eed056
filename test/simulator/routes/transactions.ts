/**
 * Transactions area: create, launch (create + upload + start in one multipart request), upload
 * files, start, status, delete, parameters and mobile input links (Processing v1, OpenAPI in
 * test/fixtures/openapi/vantage-processing-v1.json). State and lifecycle live in ../processing/.
 */
import { randomBytes } from 'node:crypto';

import {
	problem,
	readJson,
	respond,
	route,
	type Reply,
	type RequestContext,
	type Route,
} from '../http';
import type { Processing } from '../processing/lifecycle';
import type { TransactionState } from '../processing/state';
import { receiveUpload, type ReceivedFile } from '../processing/uploads';
import * as S from '../schemas';
import type { SimulatorCore } from '../server';

const API = '/api/publicapi/v1';
const TX = `${API}/transactions/:transactionId`;
/** docs: "The maximum count per transaction should not exceed 1000". */
export const MAX_FILES = 1000;
export const DUPLICATE_NAME = 'A file with the same name already exists in the transaction';
const LAUNCH_INVALID = 'Some files are invalid or skillId is not specified';

export class TransactionsArea {
	readonly routes: Route[];

	constructor(
		private readonly core: SimulatorCore,
		private readonly processing: Processing,
	) {
		const stream = { stream: true };
		this.routes = [
			route('CreateTransaction', 'POST', `${API}/transactions`, (c) => this.create(c)),
			route(
				'LaunchTransaction',
				'POST',
				`${API}/transactions/launch`,
				(c) => this.launch(c),
				stream,
			),
			route('AddFilesToTransaction', 'POST', `${TX}/files`, (c) => this.addFiles(c), stream),
			route('StartTransaction', 'POST', `${TX}/start`, (c) => this.start(c)),
			route('GetTransactionInfo', 'GET', TX, (c) => this.info(c)),
			route('DeleteTransaction', 'DELETE', TX, (c) => this.remove(c)),
			route('GetTransactionRegistrationParameters', 'GET', `${TX}/registrationParameters`, (c) =>
				respond(
					200,
					S.TransactionRegistrationParameterDto.array(),
					this.find(c).registrationParameters.map(({ key, value }) => ({ key, value })),
				),
			),
			route('GetTransactionSkillParameters', 'GET', `${TX}/skillParameters`, (c) =>
				respond(
					200,
					S.TransactionSkillParameterDto.array(),
					this.find(c).skillParameters.map(({ key, value }) => ({
						key,
						value,
						type: /^(true|false)$/i.test(value) ? 'Bool' : 'String',
					})),
				),
			),
			route('GenerateMobileInputLink', 'POST', `${TX}/mobileInputLink`, (c) => this.mobileLink(c)),
		];
	}

	private find(ctx: RequestContext): TransactionState {
		return this.processing.store.find(ctx);
	}

	private create(ctx: RequestContext): Reply {
		const body = readJson(ctx, S.TransactionCreateRequest);
		const skill = this.processing.skills.published(body.skillId);
		const tx = this.processing.store.create(skill.id, {
			tenantId: ctx.token?.tenantId ?? undefined,
			registrationParameters: body.registrationParameters,
			skillParameters: body.skillParameters,
		});
		this.processing.store.counts.transactions++;
		return respond(201, S.NewTransactionResult, {
			transactionId: tx.id,
			...(body.generateMobileInputLink
				? { mobileInputLink: `${this.core.url}/mobile/${tx.id}` }
				: {}),
		});
	}

	/** Create, add the files and start, in one multipart request. */
	private async launch(ctx: RequestContext): Promise<Reply> {
		const upload = await receiveUpload(
			ctx,
			S.TransactionLaunchMetadataDto,
			this.core.options.maxUploadBytes,
		);
		const skillId = ctx.query.get('skillId');
		if (!skillId) throw problem(400, 'Bad Request', LAUNCH_INVALID);
		const skill = this.processing.skills.published(skillId);
		checkFiles(upload.files, upload.model?.files, [], 'launch');
		const { store } = this.processing;
		const tx = store.create(skill.id, {
			tenantId: ctx.token?.tenantId ?? undefined,
			registrationParameters: upload.model?.registrationParameters,
			skillParameters: upload.model?.skillParameters,
		});
		this.processing.addFiles(tx, upload.files, upload.model?.files, null);
		this.processing.start(tx);
		store.counts.transactions++;
		store.counts.launches++;
		store.counts.uploads++;
		store.counts.filesUploaded += upload.files.length;
		return respond(201, S.CreatedTransactionResult, { transactionId: tx.id });
	}

	private async addFiles(ctx: RequestContext): Promise<Reply> {
		const upload = await receiveUpload(
			ctx,
			S.TransactionMetadataDto,
			this.core.options.maxUploadBytes,
		);
		const tx = this.find(ctx);
		if (tx.status !== 'New') {
			throw problem(
				400,
				'Bad Request',
				'Files can only be added to a transaction that has not been started',
			);
		}
		checkFiles(
			upload.files,
			upload.model?.files,
			tx.files.map((f) => f.name),
			'files',
		);
		const added = this.processing.addFiles(tx, upload.files, upload.model?.files, null);
		this.processing.store.counts.uploads++;
		this.processing.store.counts.filesUploaded += added.length;
		if (this.core.options.filesResponse === 'list') {
			return respond(
				200,
				S.FileDto.array(),
				added.map((f) => ({ id: f.id, name: f.name })),
			);
		}
		return { status: 200, empty: true };
	}

	private start(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		if (tx.status !== 'New' || tx.files.length === 0) {
			throw problem(400, 'Bad Request', 'Transaction cannot be started', {
				reason:
					tx.status !== 'New' ? `The transaction is ${tx.status}` : 'The transaction has no files',
			});
		}
		this.processing.start(tx);
		return { status: 200, empty: true };
	}

	private info(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		this.processing.advance(tx, true);
		return respond(200, S.TransactionDto, this.processing.view(tx));
	}

	/** Accepted at once; the transaction stays readable for `deleteGraceMs`, then 404. */
	private remove(ctx: RequestContext): Reply {
		this.processing.store.markDeleted(this.find(ctx));
		return { status: 200, empty: true };
	}

	private mobileLink(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		if (tx.status !== 'New') {
			throw problem(
				400,
				'Bad Request',
				`Link can not be generated because transaction has invalid status: ${tx.status}`,
			);
		}
		return respond(200, S.MobileInputLinkResult, {
			transactionId: tx.id,
			mobileInputLink: `${this.core.url}/mobile/${tx.id}?token=${randomBytes(16).toString('hex')}`,
		});
	}
}

/**
 * The checks every upload shares. `existing`: stored names already in the transaction. Over the
 * file limit: 400 for /files and launch (inferred), 409 "Max files count exceeded" for a document's
 * sourceFiles (declared). A name taken (after character replacement), also within the request: 409.
 */
export function checkFiles(
	files: ReceivedFile[],
	metadata: unknown[] | null | undefined,
	existing: string[],
	kind: 'launch' | 'files' | 'document',
): void {
	if (files.length === 0) {
		if (kind === 'launch') throw problem(400, 'Bad Request', LAUNCH_INVALID);
		throw problem(400, 'One or more validation errors occurred.', undefined, {
			errors: { Files: ['At least one file is required.'] },
		});
	}
	if (metadata && metadata.length !== files.length) {
		throw problem(400, 'One or more validation errors occurred.', undefined, {
			errors: {
				'Model.files': [
					`Model.files has ${metadata.length} entries but ${files.length} files were sent.`,
				],
			},
		});
	}
	const empty = files.find((f) => f.size === 0);
	if (empty) {
		const detail = kind === 'launch' ? LAUNCH_INVALID : 'The file is empty';
		throw problem(400, 'Bad Request', detail, { fileName: empty.name });
	}
	if (existing.length + files.length > MAX_FILES) {
		const limit = { limit: MAX_FILES };
		if (kind === 'document') throw problem(409, 'Conflict', 'Max files count exceeded', limit);
		throw problem(
			400,
			'Bad Request',
			kind === 'launch' ? LAUNCH_INVALID : 'Max files count exceeded',
			limit,
		);
	}
	const names = new Set(existing);
	for (const file of files) {
		if (names.has(file.name))
			throw problem(409, 'Conflict', DUPLICATE_NAME, { fileName: file.name });
		names.add(file.name);
	}
}
