import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reading } from '#shared/preflight/readings';

/**
 * A recorded AWS answer (test/fixtures/preflight): the HTTP status and either the body as the API
 * returns it (as JSON; CloudFront's XML in the SDK's field names) or the error's code and message.
 */
export interface RecordedAnswer {
  status: number;
  body?: Record<string, unknown>;
  error?: { code: string; message: string };
}

export function recordedAnswer(name: string): RecordedAnswer {
  return JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/preflight', `${name}.json`), 'utf8')) as RecordedAnswer;
}

/** What the adapters make of a recorded answer: the body, or the SDK error's name and message. */
export function readingOf<T>(name: string): Reading<T> {
  const answer = recordedAnswer(name);
  return answer.error ? { ok: false, error: { name: answer.error.code, message: answer.error.message } } : { ok: true, answer: answer.body as T };
}
