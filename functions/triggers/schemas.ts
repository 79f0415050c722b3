import * as z from '#shared/zod';
import { sessionIdParam } from '#shared/http/common-schemas';
import { MAX_TASK_INPUT_BYTES } from '#functions/tasks/schemas';

/** ISO 8601 instants with an offset or Z (the cron module checks they parse). */
const instant = () => z.string().check(z.minLength(1), z.maxLength(64));

const scheduleSource = () =>
  z.strictObject({
    type: z.literal('schedule'),
    cron: z.string().check(z.minLength(1), z.maxLength(200)),
    timezone: z.string().check(z.minLength(1), z.maxLength(64)),
    overlap: z._default(z.enum(['skip', 'allow']), 'skip'),
    start_at: z.optional(instant()),
    end_at: z.optional(instant()),
  });

const eventSource = () =>
  z.strictObject({
    type: z.literal('event'),
    artifact_type: z.string().check(z.minLength(1), z.maxLength(128)),
    agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  });

/** A regular expression as a trigger stores it: bounded, and compiled by the service to check it. */
const pattern = () => z.string().check(z.minLength(1), z.maxLength(200));

const mailSource = () =>
  z.strictObject({
    type: z.literal('mail'),
    integration_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    match: z.optional(z.strictObject({ from: z.optional(pattern()), subject: z.optional(pattern()) })),
  });

const chatSource = () =>
  z.strictObject({
    type: z.literal('chat'),
    integration_id: z.string().check(z.minLength(1), z.maxLength(64)),
    channel: z.string().check(z.regex(/^[A-Z0-9][A-Z0-9_-]{1,40}$/, 'must be a Slack channel id such as C0123ABCD')),
    pattern: pattern(),
  });

const taskTemplate = () =>
  z
    .strictObject({
      agent: z.string().check(z.minLength(1), z.maxLength(64)),
      task_type: z.string().check(z.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'must look like <domain>.<action>')),
      input: z._default(z.record(z.string(), z.unknown()), {}),
      input_mapping: z.optional(z.record(z.string().check(z.minLength(1), z.maxLength(128)), z.string().check(z.maxLength(1024))).check(z.refine((value) => Object.keys(value).length <= 50, 'must have at most 50 fields'))),
      priority: z._default(z.enum(['low', 'normal', 'high']), 'normal'),
    })
    .check(z.refine((task) => Buffer.byteLength(JSON.stringify(task.input), 'utf8') <= MAX_TASK_INPUT_BYTES, { path: ['input'], message: `must be at most ${MAX_TASK_INPUT_BYTES} bytes as JSON` }));

const source = () => z.discriminatedUnion('type', [scheduleSource(), eventSource(), mailSource(), chatSource()], { error: 'must be {"type": "schedule" | "event" | "mail" | "chat", ...}' });

export const createTriggerBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    source: source(),
    task: taskTemplate(),
    enabled: z._default(z.boolean(), true),
  }),
);

/** Any of the creation fields; `source` and `task` are replaced whole. `enabled: false` pauses. */
export const updateTriggerBody = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
      source: z.optional(source()),
      task: z.optional(taskTemplate()),
      enabled: z.optional(z.boolean()),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, 'must change at least one of name, source, task, enabled')),
);

export const listTriggersQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    type: z.optional(z.enum(['schedule', 'event', 'mail', 'chat'])),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const listRunsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const triggerParams = /* @__PURE__ */ z.schema(() => z.object({ trigger_id: sessionIdParam }));

/** A schedule trigger's fire: EventBridge (or the local runner) names the scheduled time. */
export const triggerFireEvent = /* @__PURE__ */ z.schema(() =>
  z.object({ tenant_id: z.string().check(z.minLength(1)), trigger_id: z.string().check(z.minLength(1)), scheduled_time: z.optional(z.string().check(z.minLength(1))) }),
);
