import type { SQSRecord } from 'aws-lambda';
import type * as z from '#shared/zod';
import { wellFormedCorrelationId } from '#shared/observability/correlation';
import { currentCorrelationId } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';

/** What every consumer gets besides its own fields: the correlation id of the work that sent it. */
export type WithCorrelation<T> = T & { correlation_id?: string };

/**
 * Serialises a message for a queue with the current correlation id (the API request or the
 * message being worked on), so the consumer's log lines carry the same id as the sender's.
 */
export function messageBody(message: object): string {
  const correlationId = currentCorrelationId();
  return JSON.stringify(correlationId ? { ...message, correlation_id: correlationId } : message);
}

/**
 * The validated body of a queue message, or undefined (logged) when no valid message could ever
 * come from it: retrying cannot help such a message, so consumers drop it instead of failing.
 * `correlation_id` is an envelope field: taken off before the consumer's strict schema checks the
 * rest, optional so that messages sent before it existed still work.
 */
export function parseMessageBody<T extends z.ZodType>(record: SQSRecord, schema: T, consumer: string): WithCorrelation<z.infer<T>> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  let correlationId: string | undefined;
  if (body && typeof body === 'object' && 'correlation_id' in body) {
    const { correlation_id: raw, ...rest } = body as Record<string, unknown>;
    correlationId = wellFormedCorrelationId(raw);
    body = rest;
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return (correlationId ? { ...(parsed.data as object), correlation_id: correlationId } : parsed.data) as WithCorrelation<z.infer<T>>;
  logger.error('malformed message dropped', { consumer, message_id: record.messageId });
  return undefined;
}
