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
