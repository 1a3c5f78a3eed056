/**
 * Transactions area: skills, transactions and transaction documents (Processing v1, OpenAPI in
 * test/fixtures/openapi/vantage-processing-v1.json).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod/v4';

import {
	notFound,
	problem,
	readJson,
	respond,
	route,
	type Reply,
	type RequestContext,
	type Route,
} from '../http';
import * as S from '../schemas';
import type { SimulatorCore } from '../server';

export interface TransactionRecord {
	id: string;
	skillId: string;
	status: z.infer<typeof S.TransactionStatus>;
	documents: Array<{ id: string; index: number | null; imageProcessingOptions?: unknown }>;
}

const API = '/api/publicapi/v1';

export class TransactionsArea {
	readonly routes: Route[];
	private readonly transactions = new Map<string, TransactionRecord>();
	private readonly skills = new Map<string, z.infer<typeof S.SkillListItemDto>>();

	constructor(private readonly core: SimulatorCore) {
		this.routes = [
			route('GetAvailableSkills', 'GET', `${API}/skills`, () =>
				respond(200, S.SkillListItemDto.array(), [...this.skills.values()]),
			),
			route('CreateTransaction', 'POST', `${API}/transactions`, (c) => this.create(c)),
			route('GetTransactionInfo', 'GET', `${API}/transactions/:transactionId`, (c) => this.info(c)),
			route(
				'CreateTransactionDocument',
				'POST',
				`${API}/transactions/:transactionId/documents`,
				(c) => this.addDocument(c),
			),
		];
	}

	// ------------------------------------------------------------ controls

	addSkill(skill: z.infer<typeof S.SkillListItemDto>): void {
		this.skills.set(skill.id, skill);
	}

	createTransaction(skillId: string): string {
		const id = randomUUID();
		this.transactions.set(id, { id, skillId, status: 'New', documents: [] });
		return id;
	}

	get(id: string): TransactionRecord | undefined {
		return this.transactions.get(id);
	}

	documentCount(): number {
		let documents = 0;
		for (const tx of this.transactions.values()) documents += tx.documents.length;
		return documents;
	}

	/** For `GET /__simulator/state`. */
	snapshot(): TransactionRecord[] {
		return [...this.transactions.values()];
	}

	// ------------------------------------------------------------ routes

	private create(ctx: RequestContext): Reply {
		const body = readJson(ctx, S.TransactionCreateRequest);
		if (!this.skills.has(body.skillId)) {
			throw notFound('Skill with specified skillId not found or not published');
		}
		const transactionId = this.createTransaction(body.skillId);
		return respond(201, S.NewTransactionResult, {
			transactionId,
			...(body.generateMobileInputLink
				? { mobileInputLink: `${this.core.url}/mobile/${transactionId}` }
				: {}),
		});
	}

	private find(ctx: RequestContext): TransactionRecord {
		const tx = this.transactions.get(ctx.params.transactionId.toLowerCase());
		if (!tx) throw notFound('Transaction not found');
		return tx;
	}

	private info(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		return respond(200, S.TransactionDto, {
			id: tx.id,
			status: tx.status,
			documents: tx.documents.map((d) => ({ id: d.id })),
			sourceFiles: [],
		});
	}

	private addDocument(ctx: RequestContext): Reply {
		const tx = this.find(ctx);
		const body = readJson(ctx, S.TransactionDocumentCreateRequest);
		const skill = this.skills.get(tx.skillId);
		if (skill?.type !== 'Process' && tx.documents.length >= 1) {
			throw problem(400, 'Bad Request', 'Non-process skills allow only one document');
		}
		if (tx.status !== 'New')
			throw problem(400, 'Bad Request', 'Transaction has already been started');
		const documentId = randomUUID();
		tx.documents.push({
			id: documentId,
			index: body.index ?? null,
			imageProcessingOptions: body.imageProcessingOptions,
		});
		return respond(201, S.NewTransactionDocumentResult, { documentId });
	}
}
