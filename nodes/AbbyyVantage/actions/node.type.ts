import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { VantageClient } from '../transport';

/** What every `<operation>.operation.ts` exports. */
export interface OperationModule {
	description: INodeProperties[];
	execute: (
		this: IExecuteFunctions,
		items: INodeExecutionData[],
		client: VantageClient,
	) => Promise<INodeExecutionData[]>;
}

export type OperationMap = Record<string, OperationModule>;

/** How an operation appears in the Operation picker (n8n's UX copy rules). */
export interface OperationLabel {
	/** Title Case, without the resource. */
	name: string;
	/** Sentence case, adds information. */
	description: string;
	/** Sentence case, with the resource, no articles. */
	action: string;
}

/** One row of a resource's table (`<Resource>.resource.ts`): an operation and its label. */
export interface OperationRow extends OperationLabel {
	module: OperationModule;
	/**
	 * What the ABBYY Vantage Tool tells a model about the operation: its own description in
	 * agent/tools.ts (the default), or `'generic'`, none needed: "<description> (ABBYY Vantage).",
	 * for operations a model has little use for. A unit test holds every operation to one of the two.
	 */
	toolDescription?: 'generic';
}

/** A resource's operations by the Operation parameter's value. */
export type OperationTable = Record<string, OperationRow>;
