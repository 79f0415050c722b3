import { Cron } from 'croner';
import { InvalidRequestError, type FieldError } from '#shared/domain/errors';

/**
 * Schedule triggers' time rules (docs/triggers.md): 5-field cron in an IANA time zone, the next
 * runs, which scheduled time a fire is for, and which runs were missed during downtime. croner
 * enumerates the times; the syntax is checked here first, so that every expression accepted can
 * also be written as an EventBridge Scheduler cron (eventbridge-cron.ts) and means the same there.
 *
 * Daylight saving is handled as the zone does it (the product contract):
 * - spring forward: a scheduled wall time the zone skips runs once, at the first valid instant
 *   after the gap (Europe/Berlin 2026-03-29: `30 2 * * *` runs at 03:00 CEST, 01:00Z). All the
 *   skipped times of one gap, and a run of the schedule at the gap's end itself, make one run
 *   there (every 15 minutes: 02:00, 02:15, 02:30, 02:45 and 03:00 are one run at 03:00). A
 *   schedule with no time in the gap gets no extra run.
 * - fall back: a wall time the zone shows twice runs once, at its first occurrence.
 *
 * EventBridge Scheduler, which fires the deployed schedules, does the same in the fall but skips
 * the spring times: "When time shifts forward in the Spring, if a cron expression falls on a
 * non-existent date and time, your schedule invocation is skipped. When time shifts backwards in
 * the Fall, your schedule runs only once and does not repeat its invocation." (EventBridge
 * Scheduler User Guide, "Daylight savings time on EventBridge Scheduler",
 * https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html#daylist-savings-time).
 * firedByEventBridge tells the runs it fires from the gap runs, for which the runner adds a
 * one-time schedule.
 *
 * croner is used for the runs EventBridge fires only (isEventBridgeRun): it runs wildcard, list
 * and range schedules on both passes through a repeated hour, and is not consistent in a gap (it
 * moves a single fixed time such as `30 2` to the end of the gap but drops `15,45 2` and
 * `30 1-3`'s 02:30). The gaps come from the zone's offsets instead (zoneGaps), and a gap has a run
 * when one of its skipped wall times matches the expression (gapRuns).
 */

/** A schedule trigger's timing, as the API takes it (`body.source` without `type` and `overlap`). */
export interface ScheduleSpec {
  cron: string;
  timezone: string;
  start_at?: string;
  end_at?: string;
}

/** One comma-separated item of a field (`*`, a value, a range, either with a step), as numbers. */
export interface CronTerm {
  /** The item as written, upper-cased. */
  text: string;
  star: boolean;
  /** Written with names only (`MON-FRI`, `JAN`), without a step. */
  named: boolean;
  from: number;
  to: number;
  step: number;
}

/** One of the five fields, parsed. */
export interface CronField {
  name: string;
  min: number;
  max: number;
  terms: CronTerm[];
  /** The values the field matches; day-of-week 7 is stored as 0 (Sunday). */
  values: ReadonlySet<number>;
  /** The field is exactly `*`. */
  any: boolean;
}

/** A valid 5-field expression: what croner evaluates and the EventBridge translation reads. */
export interface ParsedCron {
  /** The five fields as given, a macro expanded. */
  expression: string;
  minutes: CronField;
  hours: CronField;
  dayOfMonth: CronField;
  month: CronField;
  dayOfWeek: CronField;
}

/** How early a fire may arrive (clock skew) and still count for the scheduled time after it. */
export const FIRE_TOLERANCE_MS = 5_000;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const FIELD_ORDER = 'minute hour day-of-month month day-of-week';
// Feb 29 exists in leap years, so only days no month ever has make a schedule that never runs.
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

interface FieldRule {
  name: string;
  min: number;
  max: number;
  /** Names for min, min + 1, ... (day-of-week also takes 7 for Sunday, which has no name of its own). */
  names?: string[];
}

const FIELD_RULES: FieldRule[] = [
  { name: 'minutes', min: 0, max: 59 },
  { name: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES },
  { name: 'day-of-week', min: 0, max: 7, names: DAY_NAMES },
];

/** Macros are shorthands for 5-field expressions; expanding them keeps one syntax downstream. */
const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

// ---------------------------------------------------------------------------------------------
// Syntax

/** A parse result: the value, or the problems in words. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Parses a 5-field expression (or macro), or says in words what is wrong with it. */
export function parseCron(cron: string): Parsed<ParsedCron> {
  const expression = expandMacro(cron);
  if (!expression.ok) return expression;
  const parts = expression.value.split(/\s+/);
  const countProblem = fieldCountProblem(parts.length);
  if (countProblem) return { ok: false, problems: [countProblem] };
  const fields: CronField[] = [];
  const problems: string[] = [];
  parts.forEach((text, index) => {
    const field = parseField(text, FIELD_RULES[index], `field ${index + 1} (${FIELD_RULES[index].name})`);
    if (field.ok) fields.push(field.value);
    else problems.push(...field.problems);
  });
  if (problems.length > 0) return { ok: false, problems };
  const [minutes, hours, dayOfMonth, month, dayOfWeek] = fields;
  const parsed: ParsedCron = { expression: parts.join(' '), minutes, hours, dayOfMonth, month, dayOfWeek };
  const dayProblem = dayFieldsProblem(parsed);
  return dayProblem ? { ok: false, problems: [dayProblem] } : { ok: true, value: parsed };
}

/** The problems of a cron expression alone, each at `cron`; empty when it is valid. */
export function cronProblems(cron: unknown): FieldError[] {
  if (typeof cron !== 'string') return [{ path: 'cron', message: `cron must be a string of 5 fields: ${FIELD_ORDER}` }];
  const parsed = parseCron(cron);
  if (!parsed.ok) return parsed.problems.map((message) => ({ path: 'cron', message }));
  const engineProblem = cronerProblem(parsed.value);
  return engineProblem ? [{ path: 'cron', message: engineProblem }] : [];
}

function expandMacro(cron: string): Parsed<string> {
  const trimmed = cron.trim();
  if (trimmed === '') return { ok: false, problems: [`cron is empty: write 5 fields: ${FIELD_ORDER}`] };
  if (!trimmed.startsWith('@')) return { ok: true, value: trimmed };
  const expanded = MACROS[trimmed.toLowerCase()];
  if (expanded) return { ok: true, value: expanded };
  return { ok: false, problems: [`unknown macro '${trimmed}': use @hourly, @daily, @weekly, @monthly or @yearly, or 5 fields: ${FIELD_ORDER}`] };
}

function fieldCountProblem(count: number): string | undefined {
  if (count === 5) return undefined;
  if (count === 6) return `cron has 6 fields: a seconds field (or EventBridge's year field) is not supported, schedules run at most once a minute; write 5 fields: ${FIELD_ORDER}`;
  if (count === 7) return `cron has 7 fields: seconds and year fields are not supported; write 5 fields: ${FIELD_ORDER}`;
  return `cron has ${count} field${count === 1 ? '' : 's'}, expected 5: ${FIELD_ORDER}`;
}

function parseField(text: string, rule: FieldRule, label: string): Parsed<CronField> {
  const terms: CronTerm[] = [];
  const problems: string[] = [];
  for (const item of text.split(',')) {
    const term = parseTerm(item.toUpperCase(), rule, label);
    if (term.ok) terms.push(term.value);
    else problems.push(...term.problems);
  }
  if (problems.length > 0) return { ok: false, problems };
  const values = new Set<number>();
  for (const term of terms) {
    for (let value = term.from; value <= term.to; value += term.step) values.add(rule.name === 'day-of-week' ? value % 7 : value);
  }
  return { ok: true, value: { name: rule.name, min: rule.min, max: rule.max, terms, values, any: text === '*' } };
}

const TERM = /^(\*|[0-9A-Z]+)(?:-([0-9A-Z]+))?(?:\/(.*))?$/;

function parseTerm(text: string, rule: FieldRule, label: string): Parsed<CronTerm> {
  const unsupported = unsupportedSyntax(text, rule, label);
  if (unsupported) return { ok: false, problems: [unsupported] };
  const match = TERM.exec(text);
  if (!match || (match[1] === '*' && match[2] !== undefined)) {
    return { ok: false, problems: [`${label} has '${text}', which is not a value, a range a-b, '*' or a step such as */5`] };
  }
  const [, first, last, stepText] = match;
  const star = first === '*';
  const from = star ? { ok: true as const, value: rule.min } : parseAtom(first, rule, label);
  const to = star ? { ok: true as const, value: rule.name === 'day-of-week' ? 6 : rule.max } : last === undefined ? from : parseAtom(last, rule, label);
  const step = stepText === undefined ? { ok: true as const, value: 1 } : parseStep(stepText, rule, label);
  const problems = [from, to, step].flatMap((part) => (part.ok ? [] : part.problems));
  if (!from.ok || !to.ok || !step.ok) return { ok: false, problems: [...new Set(problems)] };
  if (from.value > to.value) return { ok: false, problems: [`${label} has the range '${text}', which runs backwards: split it into ranges that run forwards, or list the values`] };
  if (stepText !== undefined && !star && last === undefined) {
    return { ok: false, problems: [`${label} has '${text}': a step needs '*' or a range, e.g. '*/${step.value}' or '${first}-${rule.max}/${step.value}'`] };
  }
  const named = !star && stepText === undefined && [first, last].every((atom) => atom === undefined || !/^\d+$/.test(atom));
  return { ok: true, value: { text, star, named, from: from.value, to: to.value, step: step.value } };
}

/** Quartz/EventBridge extensions get a message of their own, saying why they are refused. */
function unsupportedSyntax(text: string, rule: FieldRule, label: string): string | undefined {
  if (text === '') return `${label} has an empty item in its list`;
  if (text.includes('?')) return `${label} has '?', which is EventBridge (Quartz) syntax rather than standard cron: write '*'`;
  if (text.includes('#')) return `${label} has '${text}': '#' (the nth weekday of the month) is not standard 5-field cron, so it is not supported`;
  const atoms = text.split(/[-/]/).filter((atom) => atom !== '*' && !/^\d+$/.test(atom) && !(rule.names ?? []).includes(atom));
  if (atoms.some((atom) => /^(\d*L|L\d*|LW)$/.test(atom))) return `${label} has '${text}': 'L' (last day) is not standard 5-field cron, so it is not supported`;
  if (atoms.some((atom) => /^\d+W$/.test(atom))) return `${label} has '${text}': 'W' (nearest weekday) is not standard 5-field cron, so it is not supported`;
  return undefined;
}

function parseAtom(atom: string, rule: FieldRule, label: string): Parsed<number> {
  if (/^\d+$/.test(atom)) {
    const value = Number(atom);
    if (value < rule.min || value > rule.max) return { ok: false, problems: [`${label} has ${value}, allowed ${rule.min}-${rule.max}`] };
    return { ok: true, value };
  }
  if (!rule.names) return { ok: false, problems: [`${label} has '${atom}': names are only allowed in the month (JAN-DEC) and day-of-week (SUN-SAT) fields`] };
  const index = rule.names.indexOf(atom);
  if (index < 0) return { ok: false, problems: [`${label} has '${atom}', which is not a ${rule.name === 'month' ? 'month name (JAN-DEC)' : 'day name (SUN-SAT)'}`] };
  return { ok: true, value: rule.min + index };
}

function parseStep(text: string, rule: FieldRule, label: string): Parsed<number> {
  // A step as large as the whole field would only ever match its first value: say so early.
  const largest = rule.max - rule.min - (rule.name === 'day-of-week' ? 1 : 0);
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > largest) return { ok: false, problems: [`${label} has step '${text}', allowed 1-${largest}`] };
  return { ok: true, value: Number(text) };
}

/** EventBridge needs `?` in one day field, so standard cron's "either day field" cannot be kept. */
function dayFieldsProblem(cron: ParsedCron): string | undefined {
  if (!cron.dayOfMonth.any && !cron.dayOfWeek.any) {
    return "day-of-month and day-of-week cannot both be restricted: standard cron runs when either matches, which EventBridge Scheduler cannot express; keep one of them '*'";
  }
  if (cron.dayOfMonth.any) return undefined;
  const possible = [...cron.month.values].some((month) => [...cron.dayOfMonth.values].some((day) => day <= LONGEST_MONTH[month - 1]));
  return possible ? undefined : `the schedule never runs: no month in field 4 (month) has day ${[...cron.dayOfMonth.values].join(',')}`;
}

/**
 * The expression croner runs: names as numbers, as croner reads SUN ending a range as 7 (so that
 * MON-SUN works), which makes `SUN-SUN` (0-7) every day there.
 */
function cronerExpression(cron: ParsedCron): string {
  const field = (parsed: CronField) => (parsed.any ? '*' : parsed.terms.map(numericTerm).join(','));
  return [cron.minutes, cron.hours, cron.dayOfMonth, cron.month, cron.dayOfWeek].map(field).join(' ');
}

function numericTerm(term: CronTerm): string {
  const step = term.step === 1 ? '' : `/${term.step}`;
  if (term.star) return `*${step}`;
  return term.from === term.to && step === '' ? `${term.from}` : `${term.from}-${term.to}${step}`;
}

/** croner has the last word on what it can evaluate; its message is passed on as it is. */
function cronerProblem(cron: ParsedCron): string | undefined {
  try {
    new Cron(cronerExpression(cron), { paused: true, mode: '5-part', timezone: 'UTC' });
    return undefined;
  } catch (error) {
    return `cron is not accepted by the schedule engine: ${(error as Error).message}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Time zones and instants

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, format);
  }
  return format;
}

/** The problem with a time zone name, if any: it must be an IANA name (links such as UTC or US/Eastern too). */
export function timeZoneProblem(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone.trim() === '') return 'timezone is required: an IANA name such as Europe/Berlin or UTC';
  // Newer runtimes accept offsets such as +01:00 as zones; EventBridge Scheduler wants a name.
  if (/^[+-]|:/.test(zone)) return `unknown time zone '${zone}': use an IANA name such as Europe/Berlin, not an offset`;
  let resolved: string;
  try {
    resolved = formatter(zone).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone '${zone}': use an IANA name such as Europe/Berlin or UTC`;
  }
  // Intl ignores case, EventBridge does not: 'europe/berlin' would be refused when deployed.
  const caseVariant = resolved !== zone && resolved.toLowerCase() === zone.toLowerCase();
  if (caseVariant || zone.split('/').some((segment) => !/^[A-Z]/.test(segment))) return `unknown time zone '${zone}': time zone names are case-sensitive${caseVariant ? `, write '${resolved}'` : ''}`;
  return undefined;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an ISO 8601 instant with a `Z` or offset, or undefined when it is not one. */
export function parseInstant(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = ISO_INSTANT.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  // Date.parse rolls 2026-02-30 over to March; a date that does not exist is refused instead.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Every problem of a schedule, at `cron`, `timezone`, `start_at` or `end_at`; empty when it is valid. */
export function scheduleProblems(spec: ScheduleSpec): FieldError[] {
  return [...expressionProblems(spec), ...windowProblems(spec)];
}

function expressionProblems(spec: ScheduleSpec): FieldError[] {
  const zone = timeZoneProblem(spec.timezone);
  return [...cronProblems(spec.cron), ...(zone ? [{ path: 'timezone', message: zone }] : [])];
}

function windowProblems(spec: ScheduleSpec): FieldError[] {
  const problems: FieldError[] = [];
  const start = windowBound(spec.start_at, 'start_at', problems);
  const end = windowBound(spec.end_at, 'end_at', problems);
  if (start !== undefined && end !== undefined && end <= start) problems.push({ path: 'end_at', message: 'end_at must be after start_at' });
  return problems;
}

function windowBound(value: unknown, path: 'start_at' | 'end_at', problems: FieldError[]): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseInstant(value);
  if (ms === undefined) problems.push({ path, message: `${path} must be an ISO 8601 instant with a zone, such as 2026-03-01T09:00:00Z or 2026-03-01T10:00:00+01:00` });
  return ms;
}

/** The wall-clock time at instant `t` in `zone`, as the epoch ms of that time read as UTC. */
function wallTime(zone: string, t: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(t))) parts[part.type] = Number(part.value);
  const ms = ((t % 1000) + 1000) % 1000;
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) + ms;
}

/**
 * The first instant whose wall-clock time in `zone` is `wall`, or undefined when the zone skips
 * it. The offsets 15 h before and 13 h after bracket every offset (UTC-12 to UTC+14) that can
 * apply, and no zone changes its offset twice within those 28 hours.
 */
function firstInstant(zone: string, wall: number): number | undefined {
  const offsets = new Set([wallTime(zone, wall - 15 * HOUR_MS) - (wall - 15 * HOUR_MS), wallTime(zone, wall + 13 * HOUR_MS) - (wall + 13 * HOUR_MS)]);
  const instants = [...offsets].map((offset) => wall - offset).filter((t) => wallTime(zone, t) === wall);
  return instants.length > 0 ? Math.min(...instants) : undefined;
}

/** A spring-forward change: the wall times in [from, to) do not exist; `at` is the first instant after them. */
interface Gap {
  at: number;
  from: number;
  to: number;
}

const gapsByYear = new Map<string, Gap[]>();
const GAPS_KEEP = 2_000;

function offsetAt(zone: string, t: number): number {
  return wallTime(zone, t) - t;
}

/**
 * The gaps of `zone` with `at` in (after, until], oldest first. Each UTC year is read once per zone:
 * its offset every 24 hours (no zone changes its offset twice within 28 hours, see firstInstant),
 * and where it went up, the instant of the change to the millisecond.
 */
function zoneGaps(zone: string, after: number, until: number): Gap[] {
  const gaps: Gap[] = [];
  if (!(until > after)) return gaps;
  for (let year = new Date(after).getUTCFullYear(); year <= new Date(until).getUTCFullYear(); year++) {
    for (const gap of yearGaps(zone, year)) if (gap.at > after && gap.at <= until) gaps.push(gap);
  }
  return gaps;
}

/** The gaps with `at` in (1 January, 1 January of the next year], UTC. */
function yearGaps(zone: string, year: number): Gap[] {
  const key = `${zone}\u0000${year}`;
  let gaps = gapsByYear.get(key);
  if (gaps) return gaps;
  gaps = [];
  const finish = Date.UTC(year + 1, 0, 1);
  let t = Date.UTC(year, 0, 1);
  let offset = offsetAt(zone, t);
  while (t < finish) {
    const next = Math.min(t + DAY_MS, finish);
    const nextOffset = offsetAt(zone, next);
    if (nextOffset > offset) {
      const at = changeInstant(zone, t, next, offset);
      gaps.push({ at, from: at + offset, to: at + offsetAt(zone, at) });
    }
    t = next;
    offset = nextOffset;
  }
  if (gapsByYear.size >= GAPS_KEEP) gapsByYear.clear();
  gapsByYear.set(key, gaps);
  return gaps;
}

/** The first instant in (lo, hi] whose offset is not `loOffset`, by bisection. */
function changeInstant(zone: string, lo: number, hi: number, loOffset: number): number {
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(zone, mid) === loOffset) lo = mid;
    else hi = mid;
  }
  return hi;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

interface CompiledSchedule {
  cron: ParsedCron;
  zone: string;
  job: Cron;
  start: number;
  end: number;
}

const compiled = new Map<string, { cron: ParsedCron; job: Cron } | FieldError[]>();
const COMPILED_KEEP = 500;

/** The parsed schedule with its croner job; throws InvalidRequestError with every problem when invalid. */
function compile(spec: ScheduleSpec): CompiledSchedule {
  const key = `${spec.cron}\u0000${spec.timezone}`;
  let entry = compiled.get(key);
  if (!entry) {
    entry = expressionEntry(spec);
    if (compiled.size >= COMPILED_KEEP) compiled.clear();
    compiled.set(key, entry);
  }
  const problems = [...(Array.isArray(entry) ? entry : []), ...windowProblems(spec)];
  if (Array.isArray(entry) || problems.length > 0) throw new InvalidRequestError('The schedule is not valid.', problems);
  return { ...entry, zone: spec.timezone, start: parseInstant(spec.start_at) ?? -Infinity, end: parseInstant(spec.end_at) ?? Infinity };
}

function expressionEntry(spec: ScheduleSpec): { cron: ParsedCron; job: Cron } | FieldError[] {
  const problems = expressionProblems(spec);
  const parsed = parseCron(spec.cron);
  if (problems.length > 0 || !parsed.ok) return problems;
  return { cron: parsed.value, job: new Cron(cronerExpression(parsed.value), { paused: true, mode: '5-part', timezone: spec.timezone }) };
}

function dayMatches(cron: ParsedCron, day: number): boolean {
  const date = new Date(day);
  return (
    cron.month.values.has(date.getUTCMonth() + 1) &&
    (cron.dayOfMonth.any || cron.dayOfMonth.values.has(date.getUTCDate())) &&
    (cron.dayOfWeek.any || cron.dayOfWeek.values.has(date.getUTCDay()))
  );
}

function wallMatches(cron: ParsedCron, wall: number): boolean {
  const date = new Date(wall);
  return cron.minutes.values.has(date.getUTCMinutes()) && cron.hours.values.has(date.getUTCHours()) && dayMatches(cron, startOfDay(wall));
}

/**
 * Whether EventBridge Scheduler fires at `t`: its wall time matches and this is the first time
 * the zone shows it. Drops croner's time moved out of a gap and its second pass through a
 * repeated hour.
 */
function isEventBridgeRun(schedule: CompiledSchedule, t: number): boolean {
  const wall = wallTime(schedule.zone, t);
  return wall % MINUTE_MS === 0 && wallMatches(schedule.cron, wall) && firstInstant(schedule.zone, wall) === t;
}

/** Whether one of the wall times a gap skips matches the expression: each whole minute of it is tried. */
function gapHasRun(cron: ParsedCron, gap: Gap): boolean {
  for (let wall = Math.ceil(gap.from / MINUTE_MS) * MINUTE_MS; wall < gap.to; wall += MINUTE_MS) {
    if (wallMatches(cron, wall)) return true;
  }
  return false;
}

/**
 * The runs in (after, until] that exist because of a gap: the end of each gap with a skipped
 * wall time the expression matches, oldest first. One may also be a run EventBridge fires (03:00
 * for a schedule every 15 minutes), which makes it one run.
 */
function gapRuns(schedule: CompiledSchedule, after: number, until: number): number[] {
  return zoneGaps(schedule.zone, after, until)
    .filter((gap) => gapHasRun(schedule.cron, gap))
    .map((gap) => gap.at);
}

/** Two ascending lists as one, each time once. */
function mergeTimes(a: number[], b: number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

// croner steps through its candidates; a batch cap keeps a loop over filtered times finite.
const BATCH = 64;
const MAX_BATCHES = 1_000;

/**
 * Runs strictly after `after` and at most `until`, oldest first, at most `limit` of them. Each
 * batch of croner's times covers the span up to its last time, and the gap runs of that span are
 * merged in.
 */
function runsAfter(schedule: CompiledSchedule, after: number, until: number, limit: number): number[] {
  const runs: number[] = [];
  let cursor = after;
  for (let batch = 0; batch < MAX_BATCHES && runs.length < limit; batch++) {
    const times = schedule.job.nextRuns(Math.min(BATCH, limit - runs.length + 2), new Date(cursor)).map((date) => date.getTime());
    const last = times.length > 0 ? times[times.length - 1] : until;
    const spanEnd = Math.min(last, until);
    const fired = times.filter((t) => t <= spanEnd && isEventBridgeRun(schedule, t));
    const gaps = Number.isFinite(spanEnd) ? gapRuns(schedule, cursor, spanEnd) : [];
    for (const t of mergeTimes(fired, gaps)) {
      runs.push(t);
      if (runs.length === limit) return runs;
    }
    if (times.length === 0 || last >= until) return runs;
    cursor = last;
  }
  return runs;
}

/** The latest run at or before `at` and not before the schedule's start, if any. */
function latestRun(schedule: CompiledSchedule, at: number): number | undefined {
  let cursor = Math.min(at, schedule.end) + 1;
  // Usually the first time croner gives back is the answer: start small, as each costs a search.
  for (let batch = 0, size = 2; batch < MAX_BATCHES; batch++, size = Math.min(size * 2, BATCH)) {
    const times = schedule.job.previousRuns(size, new Date(cursor)).map((date) => date.getTime());
    // This batch covers [spanStart, cursor): croner's times in it, and the gap runs between them.
    const spanStart = Math.max(times.length > 0 ? times[times.length - 1] : schedule.start, schedule.start);
    const fired = times.find((t) => t >= schedule.start && isEventBridgeRun(schedule, t));
    const gaps = Number.isFinite(spanStart) ? gapRuns(schedule, spanStart - 1, cursor - 1) : [];
    const latest = Math.max(fired ?? -Infinity, ...gaps);
    if (latest > -Infinity) return latest;
    if (times.length === 0 || times[times.length - 1] < schedule.start) return undefined;
    cursor = times[times.length - 1];
  }
  return undefined;
}

/**
 * How many runs fall in (after, until], without listing them: a whole local day with no offset
 * change counts hours x minutes when the day matches; other days (partial, or with a DST change)
 * try each matching wall time. A year of `* * * * *` is then about 365 cheap steps. Gap runs that
 * are not also a run EventBridge fires are counted on top.
 */
function countRuns(schedule: CompiledSchedule, after: number, until: number): number {
  const { cron, zone } = schedule;
  const perDay = cron.hours.values.size * cron.minutes.values.size;
  const lastDay = startOfDay(wallTime(zone, until)) + DAY_MS;
  let count = 0;
  let day = startOfDay(wallTime(zone, after)) - DAY_MS;
  let dayStart = firstInstant(zone, day);
  for (; day <= lastDay; day += DAY_MS) {
    const nextStart = firstInstant(zone, day + DAY_MS);
    // A day of exactly 24 hours has every wall time once, at dayStart + its time of day.
    const span = dayStart !== undefined && nextStart !== undefined && nextStart - dayStart === DAY_MS ? { from: dayStart, to: nextStart - 1 } : undefined;
    if (!dayMatches(cron, day) || (span && (span.to <= after || span.from > until))) count += 0;
    else if (span && span.from > after && span.to <= until) count += perDay;
    else count += countInDay(schedule, day, after, until);
    dayStart = nextStart;
  }
  return count + gapRuns(schedule, after, until).filter((t) => !isEventBridgeRun(schedule, t)).length;
}

function countInDay(schedule: CompiledSchedule, day: number, after: number, until: number): number {
  let count = 0;
  for (const hour of schedule.cron.hours.values) {
    for (const minute of schedule.cron.minutes.values) {
      const t = firstInstant(schedule.zone, day + hour * HOUR_MS + minute * MINUTE_MS);
      if (t !== undefined && t > after && t <= until) count++;
    }
  }
  return count;
}

function startOfDay(wall: number): number {
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/** The next `count` run times strictly after `after`, within start_at..end_at (fewer when end_at cuts them). */
export function nextRuns(spec: ScheduleSpec, after: Date, count = 5): Date[] {
  const schedule = compile(spec);
  if (count <= 0) return [];
  return runsAfter(schedule, Math.max(after.getTime(), schedule.start - 1), schedule.end, count).map((t) => new Date(t));
}

/**
 * The scheduled time a fire at `firedAt` is for: the latest run at or before `firedAt +
 * toleranceMs` within the window, or undefined. The tolerance absorbs a fire that arrives a little
 * early; a late one (EventBridge fires within the minute, later on retries) still maps back to
 * its time, as long as it arrives before the next run. Two fires for one time map to the same time.
 */
export function scheduledTimeFor(spec: ScheduleSpec, firedAt: Date, toleranceMs = FIRE_TOLERANCE_MS): Date | undefined {
  const schedule = compile(spec);
  const run = latestRun(schedule, firedAt.getTime() + toleranceMs);
  return run === undefined ? undefined : new Date(run);
}

/**
 * Whether EventBridge Scheduler fires `run` itself. true for a run whose wall time the expression
 * matches, at its first occurrence (in a repeated hour EventBridge "runs only once"), including
 * the end of a gap when the expression matches that time too (03:00 for `0 3 * * *`, or for a
 * schedule every 15 minutes, whose 02:00-02:45 fold into it). false for a run that exists only
 * because of a gap: its wall time is not one the expression matches (`30 2 * * *` at 03:00 on a
 * spring-forward day), since EventBridge skips times that do not exist ("if a cron expression
 * falls on a non-existent date and time, your schedule invocation is skipped", EventBridge
 * Scheduler User Guide, "Daylight savings time on EventBridge Scheduler",
 * https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html#daylist-savings-time).
 * The runner adds a one-time schedule for each of those. false as well for an instant that is no
 * run at all, or outside start_at..end_at.
 */
export function firedByEventBridge(spec: ScheduleSpec, run: Date): boolean {
  const schedule = compile(spec);
  const t = run.getTime();
  return t >= schedule.start && t <= schedule.end && isEventBridgeRun(schedule, t);
}

/** What the runner does after downtime: `due` runs, `missed` (oldest first) and `missedTruncated` are recorded as missed. */
export interface RunsSince {
  due: Date | undefined;
  missed: Date[];
  missedTruncated: number;
}

/**
 * The runs in (lastHandled, now] within the window: the latest is `due` (on time, or the one
 * catch-up run), the earlier ones are missed, listed oldest first up to `maxMissed` and counted
 * beyond. Without `lastHandled` only `due` is given: nothing before the trigger existed was missed.
 */
export function runsSince(spec: ScheduleSpec, lastHandled: Date | undefined, now: Date, maxMissed = 100): RunsSince {
  const schedule = compile(spec);
  const after = Math.max(lastHandled?.getTime() ?? -Infinity, schedule.start - 1);
  const due = latestRun(schedule, now.getTime());
  if (due === undefined || due <= after) return { due: undefined, missed: [], missedTruncated: 0 };
  if (lastHandled === undefined) return { due: new Date(due), missed: [], missedTruncated: 0 };
  const missed = runsAfter(schedule, after, due - 1, Math.max(0, maxMissed));
  const missedTruncated = missed.length < maxMissed ? 0 : countRuns(schedule, missed.length > 0 ? missed[missed.length - 1] : after, due - 1);
  return { due: new Date(due), missed: missed.map((t) => new Date(t)), missedTruncated };
}
