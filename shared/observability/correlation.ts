/** The header through which callers pass, and Gatehouse echoes, a correlation id. */
export const CORRELATION_HEADER = 'X-Correlation-Id';

/**
 * Accepts a caller's correlation id only when it is a short token (letters, digits and `._:-`,
 * at most 128), so that a header can never inject fields or megabytes into the logs.
 */
export function wellFormedCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined;
}
