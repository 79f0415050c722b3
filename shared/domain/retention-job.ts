import * as z from '#shared/zod';

/**
 * The body of a retention re-stamp message: the tenant, the settings version the job applies (a
 * job for an outdated version stops), and the cursor where it continues (absent: from the start).
 */
export const restampJobSchema = z.strictObject({
  tenant_id: z.string().check(z.minLength(1), z.maxLength(64)),
  version: z.number().check(z.int(), z.minimum(0)),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
});
export type RestampJob = z.infer<typeof restampJobSchema>;
