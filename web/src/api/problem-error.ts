/** One field's complaint in a validation problem (`errors[]`): `path` is dotted, e.g. `input.scope`. */
export interface FieldError {
  path: string;
  message: string;
}

/** A problem+json answer of the API as an Error whose message is the problem in words. */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly errors: FieldError[];

  constructor(status: number, body: { title?: unknown; detail?: unknown; code?: unknown; errors?: unknown }) {
    const title = typeof body.title === 'string' ? body.title : `Request failed (${status})`;
    const detail = typeof body.detail === 'string' ? body.detail : '';
    super(detail && detail !== title ? `${title}: ${detail}` : title);
    this.name = 'ProblemError';
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : 'unknown';
    this.title = title;
    this.errors = Array.isArray(body.errors) ? body.errors.filter((item): item is FieldError => typeof item?.path === 'string' && typeof item?.message === 'string') : [];
  }
}

/** Turns any failed response into a ProblemError, whether or not its body is problem+json. */
export async function problemFromResponse(response: Response): Promise<ProblemError> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return new ProblemError(response.status, body);
  }
  return new ProblemError(response.status, { title: response.statusText || `Request failed (${response.status})` });
}

/**
 * The problem an open event stream ended with: the data of its last frame, `event: error`, is the
 * problem+json an HTTP answer would carry (401 once the key or session is refused, 403, 503).
 */
export function problemFromStreamFrame(data: string): ProblemError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(data);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: still an end of the stream, reported as a server error.
  }
  const status = typeof body.status === 'number' && body.status >= 400 && body.status <= 599 ? body.status : 500;
  return new ProblemError(status, body);
}

/** The field errors whose path is `prefix.<field>` (or `<field>` without a prefix), keyed by field path under it. */
export function fieldErrors(error: unknown, prefix = ''): Record<string, string> {
  if (!(error instanceof ProblemError)) return {};
  const head = prefix ? `${prefix}.` : '';
  const found: Record<string, string> = {};
  for (const item of error.errors) if (item.path.startsWith(head)) found[item.path.slice(head.length)] ??= item.message;
  return found;
}
