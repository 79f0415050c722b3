import * as z from '#shared/zod';
import { EVENT_TYPES } from '#shared/domain/event';

const id = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
const url = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const eventTypes = /* @__PURE__ */ z.schema(() => z.array(z.enum(EVENT_TYPES)).check(z.minLength(1), z.maxLength(EVENT_TYPES.length)));
/** Client-chosen signing secret: long enough to resist guessing, printable, one line. */
const secret = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(16, 'must be at least 16 characters'), z.maxLength(256), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')));

export const webhookParams = /* @__PURE__ */ z.schema(() => z.object({ webhook_id: id }));
export const deliveryParams = /* @__PURE__ */ z.schema(() => z.object({ webhook_id: id, delivery_id: id }));

export const createWebhookBody = /* @__PURE__ */ z.schema(() => z.strictObject({ url, events: eventTypes, secret }));

export const updateWebhookBody = /* @__PURE__ */ z.schema(() =>
  z
    .partial(z.strictObject({ url, events: eventTypes, status: z.enum(['enabled', 'disabled']) }))
    .check(z.refine((body) => Object.keys(body).length > 0, 'name at least one of url, events, status')),
);

export const rotateSecretBody = /* @__PURE__ */ z.schema(() => z.strictObject({ secret, overlap_hours: z._default(z.number().check(z.minimum(0), z.maximum(168)), 24) }));

export const listDeliveriesQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    status: z.optional(z.enum(['pending', 'retrying', 'succeeded', 'failed', 'skipped'])),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const recoverBody = /* @__PURE__ */ z.schema(() => z.strictObject({ since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }) }));
