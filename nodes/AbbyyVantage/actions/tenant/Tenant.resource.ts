import type { OperationTable } from '../node.type';
import { resourceOf } from '../resourceDescription';
import * as createInvite from './createInvite.operation';

/** The tenant operations: each one's module and label. */
export const table = {
	createInvite: {
		module: createInvite,
		name: 'Create Invite',
		description: 'Invite someone by e-mail to create a new tenant',
		action: 'Create a tenant invite',
		toolDescription: 'generic',
	},
} satisfies OperationTable;

export const { operations, description } = resourceOf('tenant', table, 'createInvite');
