import { EVENT_TYPES } from '#shared/domain/event';

/** The administrative event types (who changed keys, members, settings): the tenant's audit log. */
export const AUDIT_TYPES: string[] = EVENT_TYPES.filter((type) => /^(api_key|member|settings)\./.test(type));

/** Every event type the service records, for the type filter. */
export const ALL_EVENT_TYPES: string[] = [...EVENT_TYPES];

/** How far back the list reaches; `custom` uses the `after`/`before` fields as given. */
export const RANGES = [
  { value: '1h', label: 'Last hour', ms: 3600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 24 * 3600_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * 3600_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 24 * 3600_000 },
  { value: 'all', label: 'All time', ms: 0 },
  { value: 'custom', label: 'Between two times', ms: 0 },
] as const;
export type RangeValue = (typeof RANGES)[number]['value'];

/** The Events page's filters as they stand in its URL (all strings; empty means unset). */
export interface EventFilterValues {
  type: string;
  task_id: string;
  agent: string;
  range: RangeValue;
  /** `datetime-local` values (the viewer's zone), used when `range` is `custom`. */
  after: string;
  before: string;
}

export const DEFAULT_RANGE: RangeValue = '24h';

/** Reads the filters from the URL; an unknown range falls back to the default. */
export function filtersFromParams(params: URLSearchParams): EventFilterValues {
  const range = params.get('range') ?? DEFAULT_RANGE;
  return {
    type: params.get('type') ?? '',
    task_id: params.get('task_id') ?? '',
    agent: params.get('agent') ?? '',
    range: RANGES.some((item) => item.value === range) ? (range as RangeValue) : DEFAULT_RANGE,
    after: params.get('after') ?? '',
    before: params.get('before') ?? '',
  };
}

/** The URL form of the filters: only what is set, and the range only when it is not the default. */
export function paramsFromFilters(values: EventFilterValues): Record<string, string> {
  const out: Record<string, string> = {};
  if (values.type) out.type = values.type;
  if (values.task_id.trim()) out.task_id = values.task_id.trim();
  if (values.agent.trim()) out.agent = values.agent.trim();
  if (values.range !== DEFAULT_RANGE) out.range = values.range;
  if (values.range === 'custom') {
    if (values.after) out.after = values.after;
    if (values.before) out.before = values.before;
  }
  return out;
}

/** A `datetime-local` value (the viewer's zone) as an ISO 8601 instant; undefined when empty or invalid. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** An instant as a `datetime-local` value in the viewer's zone (minutes precision). */
export function isoToLocalInput(time: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/** The query of GET /events (and of the stream, which takes `types`) for these filters at `now`. */
export function eventsQuery(values: EventFilterValues, now: Date): { type?: string; task_id?: string; agent?: string; after?: string; before?: string } {
  const range = RANGES.find((item) => item.value === values.range);
  const after = values.range === 'custom' ? localInputToIso(values.after) : range?.ms ? new Date(now.getTime() - range.ms).toISOString() : undefined;
  const before = values.range === 'custom' ? localInputToIso(values.before) : undefined;
  const query = { type: values.type || undefined, task_id: values.task_id.trim() || undefined, agent: values.agent.trim() || undefined, after, before };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}

/** Whether a type filter is exactly the audit log's types (in any order). */
export function isAuditFilter(type: string): boolean {
  const chosen = type.split(',').filter(Boolean).sort();
  return chosen.length === AUDIT_TYPES.length && [...AUDIT_TYPES].sort().every((item, index) => item === chosen[index]);
}

/** The records an event is about, for links: its task, approval, artifact and scan. */
export function eventSubjects(event: { task_id?: string; approval_id?: string; scan_id?: string; data: Record<string, unknown> }) {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  return {
    taskId: event.task_id ?? text(event.data.task_id),
    approvalId: event.approval_id ?? text(event.data.approval_id),
    artifactId: text(event.data.artifact_id),
    scanId: event.scan_id ?? text(event.data.scan_id),
    keyId: text(event.data.key_id),
    userId: text(event.data.user_id),
  };
}

/** Who made an administrative change (`data.principal`), or undefined for other events. */
export function eventPrincipal(event: { data: Record<string, unknown> }): { type: string; id: string } | undefined {
  const principal = event.data.principal as { type?: unknown; id?: unknown } | undefined;
  return principal && typeof principal.type === 'string' && typeof principal.id === 'string' ? { type: principal.type, id: principal.id } : undefined;
}
