import * as z from '#shared/zod';
import { LONGEST_RETENTION_DAYS } from '#shared/domain/retention';

/**
 * PATCH /settings/retention: whole days, or null for indefinite. Values outside what any plan
 * allows fail here (validation_error); what the tenant's own plan allows is checked by the
 * domain (retention_not_allowed_on_plan). Unknown fields are rejected.
 */
export const updateRetentionBody = /* @__PURE__ */ z.schema(() => z.strictObject({ retention_days: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(LONGEST_RETENTION_DAYS))) }));
export const noQuery = /* @__PURE__ */ z.schema(() => z.strictObject({}));
