const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * When an event happened, from its id (`evt_` + a ULID, whose first ten characters are the
 * milliseconds since the epoch): stream frames carry the id, not `created_at`.
 */
export function timeOfEventId(eventId: string): string | undefined {
  const ulid = eventId.slice(eventId.indexOf('_') + 1).toUpperCase();
  if (ulid.length < 10) return undefined;
  let ms = 0;
  for (const char of ulid.slice(0, 10)) {
    const digit = CROCKFORD.indexOf(char);
    if (digit === -1) return undefined;
    ms = ms * 32 + digit;
  }
  return new Date(ms).toISOString();
}
