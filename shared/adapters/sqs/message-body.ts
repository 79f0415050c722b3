import type { SQSRecord } from 'aws-lambda';
import type { z } from 'zod';

/**
 * The validated body of a queue message, or undefined (logged) when no valid message could ever
 * come from it: retrying cannot help such a message, so consumers drop it instead of failing.
 */
export function parseMessageBody<T extends z.ZodType>(record: SQSRecord, schema: T, consumer: string): z.infer<T> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  console.error(JSON.stringify({ level: 'ERROR', message: 'malformed message dropped', consumer, messageId: record.messageId }));
  return undefined;
}
