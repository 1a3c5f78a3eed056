/** Building blocks shared by the schema modules. */
import { z } from 'zod/v4';

export const uuid = z
	.string()
	.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
// ASP.NET's System.Text.Json reads ISO 8601 date-times with or without an offset, and bare dates.
export const dateTime = z.union([z.iso.datetime({ offset: true, local: true }), z.iso.date()]);

/** The vendor's request key/value pairs: both required, non-empty. */
export const KeyValue = z.strictObject({ key: z.string().min(1), value: z.string().min(1) });
