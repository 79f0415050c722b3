import * as z from '#shared/zod';
import { LONGEST_RETENTION_DAYS } from '#shared/domain/retention';

/**
 * PATCH /settings/retention: whole days, or null for indefinite. Values outside what any plan
 * allows fail here (validation_error); what the tenant's own plan allows is checked by the
 * domain (retention_not_allowed_on_plan). Unknown fields are rejected.
 */
export const updateRetentionBody = z.object({ retention_days: z.number().int().min(1).max(LONGEST_RETENTION_DAYS).nullable() }).strict();
export const noQuery = z.object({}).strict();
