import { Cron } from 'croner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#shared/domain/errors';
import { cronProblems, nextRuns } from '#shared/domain/cron-schedule';
import { eventBridgeProblems, toEventBridgeCron } from '#shared/domain/eventbridge-cron';

describe('toEventBridgeCron', () => {
  it.each([
    ['0 8 * * 1', 'cron(0 8 ? * 2 *)'],
    ['0 8 * * 0', 'cron(0 8 ? * 1 *)'],
    ['0 8 * * 7', 'cron(0 8 ? * 1 *)'],
    ['0 8 * * 1-5', 'cron(0 8 ? * 2-6 *)'],
    ['0 8 * * 0-6', 'cron(0 8 ? * 1-7 *)'],
    ['0 8 * * 5-7', 'cron(0 8 ? * 1,6-7 *)'],
    ['0 8 * * 1,3,5', 'cron(0 8 ? * 2,4,6 *)'],
    ['0 8 * * */2', 'cron(0 8 ? * 1,3,5,7 *)'],
    ['0 8 * * 1-5/2', 'cron(0 8 ? * 2,4,6 *)'],
    ['0 8 * * SAT,SUN', 'cron(0 8 ? * SAT,SUN *)'],
    ['0 8 * * sat,sun', 'cron(0 8 ? * SAT,SUN *)'],
    ['0 18 * * MON-FRI', 'cron(0 18 ? * MON-FRI *)'],
    ['0 18 * * MON,3', 'cron(0 18 ? * 2,4 *)'],
    ['* * * * *', 'cron(* * * * ? *)'],
    ['0 0 1 * *', 'cron(0 0 1 * ? *)'],
    ['0 0 1,15 * *', 'cron(0 0 1,15 * ? *)'],
    ['0 0 */2 * *', 'cron(0 0 1/2 * ? *)'],
    ['*/15 * * * *', 'cron(0/15 * * * ? *)'],
    ['10-59/20 * * * *', 'cron(10/20 * * * ? *)'],
    ['10-40/10 * * * *', 'cron(10,20,30,40 * * * ? *)'],
    ['0 9-17 * * *', 'cron(0 9-17 * * ? *)'],
    ['0 0 1 jan,jul *', 'cron(0 0 1 JAN,JUL ? *)'],
    ['0 0 1 JAN-MAR *', 'cron(0 0 1 JAN-MAR ? *)'],
    ['0 0 1 */3 *', 'cron(0 0 1 1/3 ? *)'],
    ['@daily', 'cron(0 0 * * ? *)'],
    ['@weekly', 'cron(0 0 ? * 1 *)'],
    ['@yearly', 'cron(0 0 1 1 ? *)'],
  ])('%s -> %s', (cron, expected) => {
    expect(toEventBridgeCron(cron)).toBe(expected);
  });

  it.each(['0 8 1 * 1', '0 0 L * *', '0 0 8 * * 1', '0 25 * * *', '0 0 ? * 1', '@reboot'])('refuses %j with the validation problems', (cron) => {
    expect(() => toEventBridgeCron(cron)).toThrow(InvalidRequestError);
    try {
      toEventBridgeCron(cron);
    } catch (error) {
      expect((error as InvalidRequestError).errors).toEqual(cronProblems(cron));
      expect((error as InvalidRequestError).errors.length).toBeGreaterThan(0);
    }
  });

  it('has the same problems as the schedule validation', () => {
    for (const cron of ['0 8 1 * 1', '0 0 * * 5L', '*/0 * * * *', '0 8 * * 1', '@hourly']) expect(eventBridgeProblems(cron)).toEqual(cronProblems(cron));
  });
});

// ---------------------------------------------------------------------------------------------
// A small interpreter of EventBridge's cron, written from its reference
// (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-cron-expressions.html) and strict
// about it: day-of-week 1-7 with 1 = Sunday and no `/`; `/` only as `start/step`; exactly one of
// the day fields `?`; the year `*`. Anything else throws, so a translation EventBridge would
// refuse or read differently fails the cross-check.

interface EventBridgeFields {
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number> | undefined;
  months: Set<number>;
  daysOfWeek: Set<number> | undefined;
}

const EB_MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const EB_DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function ebField(text: string, min: number, max: number, names: string[], slash: boolean): Set<number> {
  const values = new Set<number>();
  const atom = (value: string): number => {
    const number = /^\d+$/.test(value) ? Number(value) : names.indexOf(value) + min;
    if (!(number >= min && number <= max) || (!/^\d+$/.test(value) && !names.includes(value))) throw new Error(`EventBridge would refuse '${value}' in '${text}'`);
    return number;
  };
  for (const item of text.split(',')) {
    const step = /^(\w+)\/(\d+)$/.exec(item);
    const range = /^(\w+)-(\w+)$/.exec(item);
    if (item === '*') for (let value = min; value <= max; value++) values.add(value);
    else if (step && slash) for (let value = atom(step[1]); value <= max; value += Number(step[2])) values.add(value);
    else if (range && atom(range[1]) <= atom(range[2])) for (let value = atom(range[1]); value <= atom(range[2]); value++) values.add(value);
    else if (/^\w+$/.test(item)) values.add(atom(item));
    else throw new Error(`EventBridge would refuse '${item}' in '${text}'`);
  }
  return values;
}

function parseEventBridge(expression: string): EventBridgeFields {
  const match = /^cron\((\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\)$/.exec(expression);
  if (!match) throw new Error(`not six fields: ${expression}`);
  const [, minutes, hours, dom, month, dow, year] = match;
  if ((dom === '?') === (dow === '?')) throw new Error(`exactly one day field must be '?': ${expression}`);
  if (year !== '*') throw new Error(`the year should stay open: ${expression}`);
  return {
    minutes: ebField(minutes, 0, 59, [], true),
    hours: ebField(hours, 0, 23, [], true),
    daysOfMonth: dom === '?' ? undefined : ebField(dom, 1, 31, [], true),
    months: ebField(month, 1, 12, EB_MONTHS, true),
    daysOfWeek: dow === '?' ? undefined : ebField(dow, 1, 7, EB_DAYS, false),
  };
}

/** The next `count` times after `after` in UTC (no DST), day by day. */
function eventBridgeNextRuns(fields: EventBridgeFields, after: Date, count: number): string[] {
  const runs: string[] = [];
  const minutes = [...fields.minutes].sort((a, b) => a - b);
  const hours = [...fields.hours].sort((a, b) => a - b);
  for (let day = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate()); runs.length < count; day += 86_400_000) {
    const date = new Date(day);
    if (!fields.months.has(date.getUTCMonth() + 1)) continue;
    if (fields.daysOfMonth && !fields.daysOfMonth.has(date.getUTCDate())) continue;
    if (fields.daysOfWeek && !fields.daysOfWeek.has(date.getUTCDay() + 1)) continue;
    for (const hour of hours) {
      for (const minute of minutes) {
        const time = day + hour * 3_600_000 + minute * 60_000;
        if (time > after.getTime() && runs.length < count) runs.push(new Date(time).toISOString());
      }
    }
  }
  return runs;
}

function cronerNextRuns(cron: string, after: Date, count: number): string[] {
  return new Cron(cron, { paused: true, mode: '5-part', timezone: 'UTC' }).nextRuns(count, after).map((date) => date.toISOString());
}

describe('the EventBridge interpreter of this test', () => {
  it('reads EventBridge syntax as documented, and refuses what EventBridge does not take', () => {
    expect(eventBridgeNextRuns(parseEventBridge('cron(0 8 ? * 2 *)'), new Date('2026-01-01T00:00:00Z'), 2)).toEqual(['2026-01-05T08:00:00.000Z', '2026-01-12T08:00:00.000Z']);
    expect(eventBridgeNextRuns(parseEventBridge('cron(1/20 0 1 JAN ? *)'), new Date('2026-01-01T00:00:00Z'), 3)).toEqual(['2026-01-01T00:01:00.000Z', '2026-01-01T00:21:00.000Z', '2026-01-01T00:41:00.000Z']);
    for (const bad of ['cron(0 8 * * 2 *)', 'cron(0 8 ? * ? *)', 'cron(0 8 ? * 0 *)', 'cron(0 8 ? * 1/2 *)', 'cron(0 8 ? * 8 *)', 'cron(0 8 ? * 2 2026)', 'cron(0 8 * * *)']) {
      expect(() => parseEventBridge(bad)).toThrow();
    }
  });
});

describe('cross-check: the translation fires when croner fires for the original', () => {
  const after = new Date('2026-01-01T00:00:00Z');

  it.each([
    '0 8 * * 1',
    '0 8 * * 0',
    '0 8 * * 7',
    '*/15 9-17 * * 1-5',
    '30 6 * * 5-7',
    '0 12 * * SAT,SUN',
    '0 0 * * */2',
    '0 0 * * */3',
    '0 0 * * 1-5/2',
    '0 0 * * 0-7',
    '0 22 * * mon-fri',
    '0 9 * * MON,3',
    '5 4 1 * *',
    '0 0 1,15 * *',
    '0 */6 * * *',
    '0 0 */10 * *',
    '0 0 5-25/5 * *',
    '10-40/10 1 * * *',
    '7-59/13 1 * * *',
    '0 0 * JAN,JUL *',
    '0 0 1 */3 *',
    '0 0 1 FEB-APR *',
    '0 0 29 2 *',
    '0 0 31 * *',
    '@hourly',
    '@weekly',
    '@monthly',
  ])('%s', (cron) => {
    expect(eventBridgeNextRuns(parseEventBridge(toEventBridgeCron(cron)), after, 20)).toEqual(cronerNextRuns(cron, after, 20));
  });

  it('gives croner SUN-SUN as 0-0: croner reads it as 0-7, every day (canary: fails once croner changes)', () => {
    expect(cronerNextRuns('0 0 * * SUN-SUN', after, 2)).toEqual(['2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z']);
    expect(nextRuns({ cron: '0 0 * * SUN-SUN', timezone: 'UTC' }, after, 2).map((date) => date.toISOString())).toEqual(['2026-01-04T00:00:00.000Z', '2026-01-11T00:00:00.000Z']);
    expect(toEventBridgeCron('0 0 * * SUN-SUN')).toBe('cron(0 0 ? * SUN-SUN *)');
  });

  const number = (min: number, max: number) => fc.integer({ min, max });
  const term = (min: number, max: number, names: string[] = []) =>
    fc.oneof(
      fc.constant('*'),
      number(min, max).map(String),
      fc.tuple(number(min, max), number(min, max)).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
      number(1, max - min - (max === 7 ? 1 : 0)).map((step) => `*/${step}`),
      fc.tuple(number(min, max), number(min, max), number(1, 5)).map(([a, b, step]) => `${Math.min(a, b)}-${Math.max(a, b)}/${step}`),
      ...(names.length > 0 ? [fc.constantFrom(...names), fc.tuple(number(0, names.length - 1), number(0, names.length - 1)).map(([a, b]) => `${names[Math.min(a, b)]}-${names[Math.max(a, b)]}`)] : []),
    );
  const list = (min: number, max: number, names: string[] = []) => fc.array(term(min, max, names), { minLength: 1, maxLength: 3 }).map((terms) => terms.join(','));

  it('for generated expressions', () => {
    fc.assert(
      fc.property(
        list(0, 59),
        list(0, 23),
        fc.oneof(fc.tuple(list(1, 31), fc.constant('*')), fc.tuple(fc.constant('*'), list(0, 7, EB_DAYS))),
        list(1, 12, EB_MONTHS),
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }),
        (minutes, hours, [dom, dow], month, from) => {
          const cron = `${minutes} ${hours} ${dom} ${month} ${dow}`;
          fc.pre(cronProblems(cron).length === 0);
          const translated = eventBridgeNextRuns(parseEventBridge(toEventBridgeCron(cron)), from, 20);

          expect(translated).toEqual(nextRuns({ cron, timezone: 'UTC' }, from, 20).map((date) => date.toISOString()));
          // croner itself, on the expression as written, except for its SUN-SUN (see below).
          if (!/SUN-SUN/.test(dow)) expect(translated).toEqual(cronerNextRuns(cron, from, 20));
        },
      ),
      { numRuns: 300 },
    );
  });
});
