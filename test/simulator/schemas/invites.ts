/** CreateInvite's `Model` part (Processing v1), compared with the OpenAPI document by the contract test. */
import { z } from 'zod/v4';

/** "See CreateAdminInviteData model": `validWithin` is a .NET TimeSpan ("14.00:00:00"). */
export const CreateAdminInviteData = z.strictObject({
	email: z.email().min(1),
	validWithin: z.string().nullable().optional(),
	tenantName: z.string().min(1),
	useMySubscription: z.boolean().optional(),
	tenantDescription: z.string().nullable().optional(),
});
