import * as z from '#shared/zod';
import { EVENT_TYPES } from '#shared/domain/event';

const isoInstant = /* @__PURE__ */ z.schema(() => z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z' }));
const eventType = /* @__PURE__ */ z.schema(() => z.enum(EVENT_TYPES));

/** The list's filters by task and agent (the live stream has the same two). Built per use, as a schema module's other top-level schemas are. */
const eventFilterFields = () => ({
  task_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});

/** Comma-separated event types (`task.complete,task.failed`), 1 to 20 of them. */
const eventTypeList = () =>
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((value: string) => value.split(',').map((part) => part.trim()).filter(Boolean)),
    ),
    z.array(eventType).check(z.minLength(1), z.maxLength(20)),
  );

export const listEventsQuery = /* @__PURE__ */ z.schema(() =>
  z
    .object({
      ...eventFilterFields(),
      type: z.optional(eventTypeList()),
      after: z.optional(isoInstant),
      before: z.optional(isoInstant),
      limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(500)), 50),
      cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
    })
    .check(z.refine((query) => !query.after || !query.before || Date.parse(query.after) < Date.parse(query.before), { message: 'after must be earlier than before', path: ['after'] })),
);

const eventId = /* @__PURE__ */ z.schema(() => z.string().check(z.regex(/^evt_[0-9a-hjkmnp-tv-z]{26}$/, 'must be an event id received from this stream')));

/** GET /events/stream: the list's task and agent filters, event types, and where to resume (Last-Event-ID, or `last_event_id` where a client cannot set headers). */
export const streamQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    ...eventFilterFields(),
    types: z.optional(eventTypeList()),
    last_event_id: z.optional(eventId),
  }),
);
export const streamHeaders = /* @__PURE__ */ z.schema(() => z.object({ 'last-event-id': z.optional(eventId) }));
