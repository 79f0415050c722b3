import * as z from '#shared/zod';
import { DEFAULT_IDLE_TIMEOUT_MINUTES, MAX_IDLE_TIMEOUT_MINUTES } from '#shared/domain/session';
import { sessionIdParam, storableJson } from '#shared/http/common-schemas';
import { MAX_TASK_INPUT_BYTES } from '#functions/tasks/schemas';

/** Free-form labels: at most 20 string values, as Stripe's metadata (keys 40, values 500 characters). */
const metadata = () =>
  z.record(z.string().check(z.minLength(1), z.maxLength(40)), z.string().check(z.maxLength(500))).check(z.refine((value) => Object.keys(value).length <= 20, 'must have at most 20 keys'));

export const createSessionBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    agent: z.string().check(z.minLength(1), z.maxLength(64)),
    title: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    metadata: z._default(metadata(), {}),
    idle_timeout_minutes: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_IDLE_TIMEOUT_MINUTES)), DEFAULT_IDLE_TIMEOUT_MINUTES),
  }),
);

export const listSessionsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    status: z.optional(z.enum(['open', 'closed'])),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const sessionParams = /* @__PURE__ */ z.schema(() => z.object({ session_id: sessionIdParam }));

/** With `task_type`, the message starts a task of the session's agent with `input` (default `{}`). */
export const createMessageBody = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({
      // A message says what to do; data goes in `input`. 4,000 characters, as a long chat message.
      content: z.string().check(z.minLength(1), z.maxLength(4_000)),
      task_type: z.optional(z.string().check(z.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'must look like <domain>.<action>'))),
      input: z.optional(storableJson(z.record(z.string(), z.unknown()))),
      priority: z._default(z.enum(['low', 'normal', 'high']), 'normal'),
    })
    .check(
      z.refine((body) => body.input === undefined || body.task_type !== undefined, { path: ['input'], message: 'is only accepted with task_type' }),
      z.refine((body) => body.input === undefined || Buffer.byteLength(JSON.stringify(body.input), 'utf8') <= MAX_TASK_INPUT_BYTES, { path: ['input'], message: `must be at most ${MAX_TASK_INPUT_BYTES} bytes as JSON` }),
    ),
);

export const listMessagesQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const closeSessionBody = /* @__PURE__ */ z.schema(() => z._default(z.strictObject({ reason: z._default(z.string().check(z.minLength(1), z.maxLength(200)), 'closed') }), { reason: 'closed' }));

/** The payload of a session's idle-close schedule. */
export const idleCloseEvent = /* @__PURE__ */ z.schema(() => z.object({ tenant_id: z.string().check(z.minLength(1)), session_id: z.string().check(z.minLength(1)) }));
