import * as z from '#shared/zod';

/**
 * The body of a retention re-stamp message: the tenant, the settings version the job applies (a
 * job for an outdated version stops), and the cursor where it continues (absent: from the start).
 */
export const restampJobSchema = z
  .object({
    tenant_id: z.string().min(1).max(64),
    version: z.number().int().min(0),
    cursor: z.string().min(1).max(4096).optional(),
  })
  .strict();
export type RestampJob = z.infer<typeof restampJobSchema>;
