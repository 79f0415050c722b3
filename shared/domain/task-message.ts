import * as z from '#shared/zod';

/** The body of a task-queue message: just enough to find the task; the table holds the rest. */
export const taskMessageSchema = z.strictObject({
  tenant_id: z.string().check(z.minLength(1)),
  task_id: z.string().check(z.minLength(1)),
  /** Times the message was put back because its tenant was at its concurrency cap (shared/domain/task-fairness.ts). */
  deferrals: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(10_000))),
});
export type TaskMessage = z.infer<typeof taskMessageSchema>;
