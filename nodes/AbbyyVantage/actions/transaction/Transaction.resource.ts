import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as addFiles from './addFiles.operation';
import * as create from './create.operation';
import * as deleteTransaction from './delete.operation';
import * as downloadFile from './downloadFile.operation';
import * as generateMobileInputLink from './generateMobileInputLink.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getRegistrationParameters from './getRegistrationParameters.operation';
import * as getResults from './getResults.operation';
import * as getSkillParameters from './getSkillParameters.operation';
import * as processDocument from './processDocument.operation';
import * as start from './start.operation';
import * as waitForTransaction from './waitForTransaction.operation';

/** The transaction operations: each one's module and label. */
export const table = {
	addFiles: {
		module: addFiles,
		name: 'Add Files',
		description: 'Upload files from binary fields to a transaction or to one of its documents',
		action: 'Add files to a transaction',
	},
	create: {
		module: create,
		name: 'Create',
		description: 'Create an empty transaction for a skill, to add files to and start',
		action: 'Create a transaction',
		toolDescription: 'generic',
	},
	delete: {
		module: deleteTransaction,
		name: 'Delete',
		description: 'Delete a transaction with its files and results',
		action: 'Delete a transaction',
		toolDescription: 'generic',
	},
	downloadFile: {
		module: downloadFile,
		name: 'Download File',
		description: 'Download a result file or a source file as binary data',
		action: 'Download a transaction file',
		toolDescription: 'generic',
	},
	generateMobileInputLink: {
		module: generateMobileInputLink,
		name: 'Generate Mobile Input Link',
		description: 'Get a one-time link for adding images to a transaction from a phone',
		action: 'Generate a mobile input link',
		toolDescription: 'generic',
	},
	get: {
		module: get,
		name: 'Get',
		description: 'Get a transaction’s status, documents, result files and source files',
		action: 'Get a transaction',
	},
	getMany: {
		module: getMany,
		name: 'Get Many',
		description: 'List active or completed transactions, with filters',
		action: 'Get many transactions',
	},
	getRegistrationParameters: {
		module: getRegistrationParameters,
		name: 'Get Registration Parameters',
		description: 'Get the keys and values stored with a transaction',
		action: 'Get transaction registration parameters',
		toolDescription: 'generic',
	},
	getResults: {
		module: getResults,
		name: 'Get Results',
		description: 'Get the extracted fields of a processed transaction, one item per document',
		action: 'Get transaction results',
	},
	getSkillParameters: {
		module: getSkillParameters,
		name: 'Get Skill Parameters',
		description: 'Get the skill parameters a transaction was started with',
		action: 'Get transaction skill parameters',
		toolDescription: 'generic',
	},
	processDocument: {
		module: processDocument,
		name: 'Process Document',
		description:
			'Send files to a skill, wait, and output the extracted fields: one item per document',
		action: 'Process a document with a skill',
	},
	start: {
		module: start,
		name: 'Start',
		description: 'Start processing a transaction once its files are added',
		action: 'Start a transaction',
		toolDescription: 'generic',
	},
	waitForTransaction: {
		module: waitForTransaction,
		name: 'Wait For Transaction',
		description: 'Wait until a transaction is processed, failed or canceled',
		action: 'Wait for a transaction to finish',
	},
} satisfies OperationTable;

export const { operations, description } = resourceOf('transaction', table, 'processDocument');
