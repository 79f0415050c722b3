import { InvalidRequestError, type FieldError } from '#shared/domain/errors';
import { cronProblems, parseCron, type CronField, type CronTerm } from '#shared/domain/cron-schedule';

/**
 * A schedule trigger's 5-field cron as EventBridge Scheduler's six-field `cron(...)`, deployed
 * with the trigger's zone as `ScheduleExpressionTimezone` (docs/triggers.md). Syntax per the
 * EventBridge cron reference (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-cron-expressions.html):
 * day-of-week is 1-7 with 1 = Sunday and takes no `/`; exactly one day field is `?`; `/` is
 * documented only as `start/step`, so a step is written that way or as its list of values.
 */

/** The reasons `cron` cannot be deployed: the same rules as cronProblems, so validation and translation agree. */
export function eventBridgeProblems(cron: unknown): FieldError[] {
  return cronProblems(cron);
}

/** `cron(minutes hours day-of-month month day-of-week year)` meaning the same as the 5-field `cron`; throws InvalidRequestError when it is not valid. */
export function toEventBridgeCron(cron: string): string {
  const problems = eventBridgeProblems(cron);
  const parsed = parseCron(cron);
  if (problems.length > 0 || !parsed.ok) throw new InvalidRequestError('The cron expression cannot be scheduled.', problems);
  const { minutes, hours, dayOfMonth, month, dayOfWeek } = parsed.value;
  // Validation refuses both day fields restricted, so one of them is `*` and becomes `?`.
  const dom = dayOfWeek.any ? field(dayOfMonth) : '?';
  const dow = dayOfWeek.any ? '?' : weekdays(dayOfWeek);
  return `cron(${field(minutes)} ${field(hours)} ${dom} ${field(month)} ${dow} *)`;
}

function field(parsed: CronField): string {
  if (parsed.any) return '*';
  // Names go through as written, unless mixed with numbers (EventBridge documents either, not both).
  if (parsed.terms.every((term) => term.named)) return parsed.terms.map((term) => term.text).join(',');
  return parsed.terms.map((term) => numericTerm(term, parsed)).join(',');
}

function numericTerm(term: CronTerm, parsed: CronField): string {
  if (term.step === 1) return term.star ? '*' : term.from === term.to ? `${term.from}` : `${term.from}-${term.to}`;
  // `*/n` and `a-max/n` are EventBridge's `start/n`; a step that stops early becomes its values.
  if (term.star || term.to === parsed.max) return `${term.from}/${term.step}`;
  return termValues(term).join(',');
}

/** Day-of-week: standard 0-7 (0 and 7 Sunday) to EventBridge 1-7 (1 Sunday); no steps there, so values. */
function weekdays(parsed: CronField): string {
  if (parsed.terms.every((term) => term.named)) return parsed.terms.map((term) => term.text).join(',');
  return parsed.terms.map((term) => ranges(termValues(term).map((day) => (day % 7) + 1))).join(',');
}

function termValues(term: CronTerm): number[] {
  const values: number[] = [];
  for (let value = term.from; value <= term.to; value += term.step) values.push(value);
  return values;
}

/** Sorted distinct numbers, consecutive ones joined as ranges: [7, 6, 1] gives `1,6-7`. */
function ranges(values: number[]): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
