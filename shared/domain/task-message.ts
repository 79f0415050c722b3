import * as z from '#shared/zod';

/** The body of a task-queue message: just enough to find the task; the table holds the rest. */
export const taskMessageSchema = z
  .object({
    tenant_id: z.string().min(1),
    task_id: z.string().min(1),
    /** Times the message was put back because its tenant was at its concurrency cap (shared/domain/task-fairness.ts). */
    deferrals: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();
export type TaskMessage = z.infer<typeof taskMessageSchema>;
