import { problemTypeUri, STATUS_TITLES } from '#shared/http/problem';

/** The code each error status's example shows (every code: GET /v1/problems). */
const EXAMPLE_CODES: Record<number, { code: string; detail: string }> = {
  400: { code: 'validation_error', detail: 'The request does not match the documented shape.' },
  401: { code: 'unauthorized', detail: 'Send a valid API key or a signed-in person’s access token as `Authorization: Bearer <token>`.' },
  403: { code: 'forbidden', detail: 'The API key may not call this route.' },
  404: { code: 'task_not_found', detail: 'No task with id task_01JZZZZZZZZZZZZZZZZZZZZZZZ.' },
  406: { code: 'not_acceptable', detail: 'The event stream serves text/event-stream only.' },
  409: { code: 'idempotency_key_reused', detail: 'This Idempotency-Key was already used with a different request.' },
  413: { code: 'payload_too_large', detail: 'The request body is larger than 1048576 bytes.' },
  414: { code: 'uri_too_long', detail: 'The query string is longer than 2048 characters.' },
  415: { code: 'unsupported_media_type', detail: 'Send the body as application/json.' },
  429: { code: 'rate_limited', detail: 'Retry after 1 second.' },
  503: { code: 'service_unavailable', detail: 'A dependency of the service is not answering. Retry shortly.' },
};

/** A problem+json body as the API answers with `status`. */
export function problemExample(status: number): Record<string, unknown> {
  const { code, detail } = EXAMPLE_CODES[status] ?? { code: 'request_rejected', detail: 'The request was refused.' };
  const example: Record<string, unknown> = { type: problemTypeUri(code), title: STATUS_TITLES[status] ?? 'Error', status, detail, code };
  if (status === 400) example.errors = [{ path: 'query.limit', message: 'Too big: expected number to be <=100' }];
  return example;
}
