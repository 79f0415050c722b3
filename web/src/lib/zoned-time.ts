/** The viewer's own IANA time zone (the browser's), `UTC` when it cannot say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The IANA zones the browser knows, for suggestions (the API decides what it accepts). */
export function knownTimeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  try {
    const zones = intl.supportedValuesOf?.('timeZone') ?? [];
    return zones.includes('UTC') ? zones : ['UTC', ...zones];
  } catch {
    return ['UTC'];
  }
}

/**
 * An instant as a date and time with its zone named: in `timeZone` when given, else in the
 * viewer's zone. An unknown zone falls back to the viewer's.
 */
export function timeInZone(iso: string, timeZone?: string, locale?: string): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(then);
  } catch {
    return new Intl.DateTimeFormat(locale, options).format(then);
  }
}
