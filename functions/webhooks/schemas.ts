import * as z from '#shared/zod';
import { EVENT_TYPES } from '#shared/domain/event';

const id = z.string().check(z.minLength(1), z.maxLength(64));
const url = z.string().check(z.minLength(1), z.maxLength(2048));
const eventTypes = z.array(z.enum(EVENT_TYPES)).check(z.minLength(1), z.maxLength(EVENT_TYPES.length));
/** Client-chosen signing secret: long enough to resist guessing, printable, one line. */
const secret = z.string().check(z.minLength(16, 'must be at least 16 characters'), z.maxLength(256), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'));

export const webhookParams = z.object({ webhook_id: id });
export const deliveryParams = z.object({ webhook_id: id, delivery_id: id });

export const createWebhookBody = z.strictObject({ url, events: eventTypes, secret });

export const updateWebhookBody = z
  .partial(z.strictObject({ url, events: eventTypes, status: z.enum(['enabled', 'disabled']) }))
  .check(z.refine((body) => Object.keys(body).length > 0, 'name at least one of url, events, status'));

export const rotateSecretBody = z.strictObject({ secret, overlap_hours: z._default(z.number().check(z.minimum(0), z.maximum(168)), 24) });

export const listDeliveriesQuery = z.object({
  status: z.optional(z.enum(['pending', 'retrying', 'succeeded', 'failed', 'skipped'])),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
});

export const recoverBody = z.strictObject({ since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }) });
