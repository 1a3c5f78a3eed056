import { resourceDescription } from '../resourceDescription';
import * as createInvite from './createInvite.operation';

export const operations = { createInvite };

export const description = resourceDescription(
	'tenant',
	operations,
	{
		createInvite: {
			name: 'Create Invite',
			description: 'Invite someone by e-mail to create a new tenant',
			action: 'Create a tenant invite',
		},
	},
	'createInvite',
);
