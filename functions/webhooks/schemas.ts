import * as z from '#shared/zod';
import { EVENT_TYPES } from '#shared/domain/event';

const eventTypes = z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length);
/** Client-chosen signing secret: long enough to resist guessing, printable, one line. */
const secret = z.string().min(16, 'must be at least 16 characters').max(256).regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const webhookParams = z.object({ webhook_id: z.string().min(1).max(64) });
export const deliveryParams = z.object({ webhook_id: z.string().min(1).max(64), delivery_id: z.string().min(1).max(64) });

export const createWebhookBody = z.object({ url: z.string().min(1).max(2048), events: eventTypes, secret }).strict();

export const updateWebhookBody = z
  .object({ url: z.string().min(1).max(2048), events: eventTypes, status: z.enum(['enabled', 'disabled']) })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name at least one of url, events, status');

export const rotateSecretBody = z.object({ secret, overlap_hours: z.number().min(0).max(168).default(24) }).strict();

export const listDeliveriesQuery = z.object({
  status: z.enum(['pending', 'retrying', 'succeeded', 'failed', 'skipped']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});

export const recoverBody = z.object({ since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }) }).strict();
