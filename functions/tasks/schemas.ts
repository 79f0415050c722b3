import * as z from '#shared/zod';
import { TASK_STATUSES } from '#shared/domain/task-state';
import { taskIdParam } from '#shared/http/common-schemas';

/**
 * The task item (input included) must fit DynamoDB's 400 KB item limit with room for the task's
 * own fields; a larger input would otherwise fail at the database as a 500 (OWASP API4).
 */
export const MAX_TASK_INPUT_BYTES = 256 * 1024;

const common = {
  task_type: z.string().regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'must look like <domain>.<action>'),
  input: z.record(z.string(), z.unknown()),
  priority: z.enum(['low', 'normal', 'high']).default('normal'),
  session_id: z.string().min(1).max(128).optional(),
};

/** `agent` (slug) makes a slug-shaped task, `agent_id` an identifier-shaped one; never both. */
export const createTaskBody = z.union([
  z.object({ agent: z.string().min(1).max(64), ...common }).strict(),
  z.object({ agent_id: z.string().min(1).max(64), ...common }).strict(),
], { error: 'must name either `agent` (a slug) or `agent_id`, with `task_type` and `input`' })
  .refine((body) => Buffer.byteLength(JSON.stringify(body.input), 'utf8') <= MAX_TASK_INPUT_BYTES, { path: ['input'], message: `must be at most ${MAX_TASK_INPUT_BYTES} bytes as JSON` });

export const listTasksQuery = z.object({
  agent: z.string().min(1).max(64).optional(),
  status: z.enum(TASK_STATUSES as [string, ...string[]]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});

export const taskParams = z.object({ task_id: taskIdParam });
