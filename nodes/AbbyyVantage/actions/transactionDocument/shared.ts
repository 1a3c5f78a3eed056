import type { INodeProperties } from 'n8n-workflow';

export const documentIdProperty: INodeProperties = {
	displayName: 'Document ID',
	name: 'documentId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 6b29fc40-ca47-1067-b31d-00dd010662da',
	description: 'ID of the document in the transaction, as returned by Add or Get Many',
};
