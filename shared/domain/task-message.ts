import { z } from 'zod';

/** The body of a task-queue message: just enough to find the task; the table holds the rest. */
export const taskMessageSchema = z.object({ tenant_id: z.string().min(1), task_id: z.string().min(1) }).strict();
export type TaskMessage = z.infer<typeof taskMessageSchema>;
