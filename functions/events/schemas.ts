import * as z from '#shared/zod';
import { EVENT_TYPES } from '#shared/domain/event';

const isoInstant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z' });
const eventType = z.enum(EVENT_TYPES);

/** Filters shared by the event list and the live stream. */
export const eventFilterFields = {
  task_id: z.string().min(1).max(64).optional(),
  agent: z.string().min(1).max(64).optional(),
};

export const listEventsQuery = z
  .object({
    ...eventFilterFields,
    type: z
      .string()
      .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
      .pipe(z.array(eventType).min(1).max(20))
      .optional(),
    after: isoInstant.optional(),
    before: isoInstant.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().min(1).max(2048).optional(),
  })
  .refine((query) => !query.after || !query.before || Date.parse(query.after) < Date.parse(query.before), { message: 'after must be earlier than before', path: ['after'] });
