import * as z from '#shared/zod';
import { TASK_STATUSES } from '#shared/domain/task-state';
import { sessionIdParam, taskIdParam } from '#shared/http/common-schemas';

/**
 * The task item (input included) must fit DynamoDB's 400 KB item limit with room for the task's
 * own fields; a larger input would otherwise fail at the database as a 500 (OWASP API4).
 */
export const MAX_TASK_INPUT_BYTES = 256 * 1024;

/** Built per use: a module-level object of schemas would be built in every bundle importing this module. */
const common = () => ({
  task_type: z.string().check(z.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'must look like <domain>.<action>')),
  input: z.record(z.string(), z.unknown()),
  priority: z._default(z.enum(['low', 'normal', 'high']), 'normal'),
  session_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});

/** `agent` (slug) makes a slug-shaped task, `agent_id` an identifier-shaped one; never both. */
export const createTaskBody = /* @__PURE__ */ z.schema(() =>
  z
    .union(
      [z.strictObject({ agent: z.string().check(z.minLength(1), z.maxLength(64)), ...common() }), z.strictObject({ agent_id: z.string().check(z.minLength(1), z.maxLength(64)), ...common() })],
      { error: 'must name either `agent` (a slug) or `agent_id`, with `task_type` and `input`' },
    )
    .check(z.refine((body) => Buffer.byteLength(JSON.stringify(body.input), 'utf8') <= MAX_TASK_INPUT_BYTES, { path: ['input'], message: `must be at most ${MAX_TASK_INPUT_BYTES} bytes as JSON` })),
);

export const listTasksQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    status: z.optional(z.enum(TASK_STATUSES as [string, ...string[]])),
    /** The tasks started in a session (newest first). */
    session_id: z.optional(sessionIdParam),
    /** The tasks a trigger started (newest first). */
    trigger_id: z.optional(sessionIdParam),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const taskParams = /* @__PURE__ */ z.schema(() => z.object({ task_id: taskIdParam }));
