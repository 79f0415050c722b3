import { Cron } from 'croner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#shared/domain/errors';
import { firedByEventBridge, nextRuns, parseCron, runsSince, scheduledTimeFor, scheduleProblems, type ScheduleSpec } from '#shared/domain/cron-schedule';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const at = (iso: string) => new Date(iso);
const isoOf = (dates: Date[]) => dates.map((date) => date.toISOString());
const messages = (spec: ScheduleSpec) => scheduleProblems(spec).map((problem) => `${problem.path}: ${problem.message}`);
const cronMessages = (cron: string) => messages({ cron, timezone: 'UTC' });

describe('scheduleProblems: what is accepted', () => {
  it.each([
    '0 8 * * 1',
    '*/15 9-17 * * MON-FRI',
    '0 0 1,15 * *',
    '30 6 * jan-mar sat,sun',
    '0 12 * * 0',
    '0 12 * * 7',
    '5-55/10 */2 * * 1-5',
    '0 0 29 2 *',
    '  0  8  *  *  1  ',
    '@hourly',
    '@daily',
    '@weekly',
    '@monthly',
    '@yearly',
    '@ANNUALLY',
  ])('accepts %s', (cron) => {
    expect(cronMessages(cron)).toEqual([]);
  });

  it.each(['UTC', 'Etc/UTC', 'US/Eastern', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+5'])('accepts the zone %s', (timezone) => {
    expect(messages({ cron: '0 8 * * 1', timezone })).toEqual([]);
  });

  it('accepts a window of two instants with Z or an offset', () => {
    expect(messages({ cron: '0 8 * * 1', timezone: BERLIN, start_at: '2026-03-01T09:00:00Z', end_at: '2026-03-01T10:00:00.5+00:30' })).toEqual([]);
  });

  it('expands a macro to its five fields', () => {
    const parsed = parseCron('@weekly');

    expect(parsed.ok && parsed.value.expression).toBe('0 0 * * 0');
  });
});

describe('scheduleProblems: what is refused, and why', () => {
  it.each([
    ['', 'cron: cron is empty: write 5 fields: minute hour day-of-month month day-of-week'],
    ['0 8 * *', 'cron: cron has 4 fields, expected 5: minute hour day-of-month month day-of-week'],
    ['0', 'cron: cron has 1 field, expected 5: minute hour day-of-month month day-of-week'],
    ['0 0 8 * * 1', "cron: cron has 6 fields: a seconds field (or EventBridge's year field) is not supported, schedules run at most once a minute; write 5 fields: minute hour day-of-month month day-of-week"],
    ['0 0 8 * * 1 2026', 'cron: cron has 7 fields: seconds and year fields are not supported; write 5 fields: minute hour day-of-month month day-of-week'],
    ['@reboot', "cron: unknown macro '@reboot': use @hourly, @daily, @weekly, @monthly or @yearly, or 5 fields: minute hour day-of-month month day-of-week"],
    ['60 * * * *', 'cron: field 1 (minutes) has 60, allowed 0-59'],
    ['0 25 * * *', 'cron: field 2 (hours) has 25, allowed 0-23'],
    ['0 0 0 * *', 'cron: field 3 (day-of-month) has 0, allowed 1-31'],
    ['0 0 32 * *', 'cron: field 3 (day-of-month) has 32, allowed 1-31'],
    ['0 0 * 13 *', 'cron: field 4 (month) has 13, allowed 1-12'],
    ['0 0 * * 8', 'cron: field 5 (day-of-week) has 8, allowed 0-7'],
    ['0 MON * * *', "cron: field 2 (hours) has 'MON': names are only allowed in the month (JAN-DEC) and day-of-week (SUN-SAT) fields"],
    ['0 0 * * MUN', "cron: field 5 (day-of-week) has 'MUN', which is not a day name (SUN-SAT)"],
    ['0 0 * JANUARY *', "cron: field 4 (month) has 'JANUARY', which is not a month name (JAN-DEC)"],
    ['0 0 ? * 1', "cron: field 3 (day-of-month) has '?', which is EventBridge (Quartz) syntax rather than standard cron: write '*'"],
    ['0 0 L * *', "cron: field 3 (day-of-month) has 'L': 'L' (last day) is not standard 5-field cron, so it is not supported"],
    ['0 0 * * 5L', "cron: field 5 (day-of-week) has '5L': 'L' (last day) is not standard 5-field cron, so it is not supported"],
    ['0 0 15W * *', "cron: field 3 (day-of-month) has '15W': 'W' (nearest weekday) is not standard 5-field cron, so it is not supported"],
    ['0 0 * * MON#2', "cron: field 5 (day-of-week) has 'MON#2': '#' (the nth weekday of the month) is not standard 5-field cron, so it is not supported"],
    ['5/10 * * * *', "cron: field 1 (minutes) has '5/10': a step needs '*' or a range, e.g. '*/10' or '5-59/10'"],
    ['*/0 * * * *', "cron: field 1 (minutes) has step '0', allowed 1-59"],
    ['*/60 * * * *', "cron: field 1 (minutes) has step '60', allowed 1-59"],
    ['0 0 * * */7', "cron: field 5 (day-of-week) has step '7', allowed 1-6"],
    ['0 1-5/x * * *', "cron: field 2 (hours) has step 'X', allowed 1-23"],
    ['0 22-2 * * *', "cron: field 2 (hours) has the range '22-2', which runs backwards: split it into ranges that run forwards, or list the values"],
    ['0 0 * * SAT-SUN', "cron: field 5 (day-of-week) has the range 'SAT-SUN', which runs backwards: split it into ranges that run forwards, or list the values"],
    ['*-5 * * * *', "cron: field 1 (minutes) has '*-5', which is not a value, a range a-b, '*' or a step such as */5"],
    ['1,,2 * * * *', 'cron: field 1 (minutes) has an empty item in its list'],
    ['0 8 1 * 1', "cron: day-of-month and day-of-week cannot both be restricted: standard cron runs when either matches, which EventBridge Scheduler cannot express; keep one of them '*'"],
    ['0 8 */2 * MON-FRI', "cron: day-of-month and day-of-week cannot both be restricted: standard cron runs when either matches, which EventBridge Scheduler cannot express; keep one of them '*'"],
    ['0 0 30 2 *', 'cron: the schedule never runs: no month in field 4 (month) has day 30'],
    ['0 0 31 4,6,9,11 *', 'cron: the schedule never runs: no month in field 4 (month) has day 31'],
  ])('refuses %j', (cron, message) => {
    expect(cronMessages(cron)).toEqual([message]);
  });

  it('refuses a cron that is not a string', () => {
    expect(messages({ cron: 42 as unknown as string, timezone: 'UTC' })).toEqual(['cron: cron must be a string of 5 fields: minute hour day-of-month month day-of-week']);
  });

  it('names every problem of an expression, one entry each', () => {
    expect(cronMessages('60 25 L * MON#1')).toEqual([
      'cron: field 1 (minutes) has 60, allowed 0-59',
      'cron: field 2 (hours) has 25, allowed 0-23',
      "cron: field 3 (day-of-month) has 'L': 'L' (last day) is not standard 5-field cron, so it is not supported",
      "cron: field 5 (day-of-week) has 'MON#1': '#' (the nth weekday of the month) is not standard 5-field cron, so it is not supported",
    ]);
  });

  it.each([
    ['Mars/Base', "timezone: unknown time zone 'Mars/Base': use an IANA name such as Europe/Berlin or UTC"],
    ['', 'timezone: timezone is required: an IANA name such as Europe/Berlin or UTC'],
    ['+01:00', "timezone: unknown time zone '+01:00': use an IANA name such as Europe/Berlin, not an offset"],
    ['europe/berlin', "timezone: unknown time zone 'europe/berlin': time zone names are case-sensitive, write 'Europe/Berlin'"],
    ['us/eastern', "timezone: unknown time zone 'us/eastern': time zone names are case-sensitive"],
    ['CET+1', "timezone: unknown time zone 'CET+1': use an IANA name such as Europe/Berlin or UTC"],
  ])('refuses the zone %j', (timezone, message) => {
    expect(messages({ cron: '0 8 * * 1', timezone })).toEqual([message]);
  });

  it.each(['tomorrow', '2026-03-01', '2026-03-01T09:00:00', '2026-02-30T09:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01 09:00:00Z', ''])('refuses the instant %j at start_at and end_at', (instant) => {
    const expected = (path: string) => `${path}: ${path} must be an ISO 8601 instant with a zone, such as 2026-03-01T09:00:00Z or 2026-03-01T10:00:00+01:00`;

    expect(messages({ cron: '0 8 * * 1', timezone: 'UTC', start_at: instant, end_at: instant })).toEqual([expected('start_at'), expected('end_at')]);
  });

  it.each([
    ['2026-03-01T10:00:00Z', '2026-03-01T09:00:00Z'],
    ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z'],
    ['2026-03-01T10:00:00+01:00', '2026-03-01T09:00:00Z'],
  ])('refuses end_at %s not after start_at %s', (start_at, end_at) => {
    expect(messages({ cron: '0 8 * * 1', timezone: 'UTC', start_at, end_at })).toEqual(['end_at: end_at must be after start_at']);
  });

  it('reports problems of every part of the spec together', () => {
    expect(scheduleProblems({ cron: '0 25 * * *', timezone: 'Mars/Base', start_at: 'soon' }).map((problem) => problem.path)).toEqual(['cron', 'timezone', 'start_at']);
  });

  it('refuses to compute runs of an invalid schedule, with the same problems', () => {
    const spec = { cron: '0 25 * * *', timezone: 'Mars/Base' };

    expect(() => nextRuns(spec, at('2026-01-01T00:00:00Z'))).toThrow(InvalidRequestError);
    try {
      runsSince(spec, undefined, at('2026-01-01T00:00:00Z'));
    } catch (error) {
      expect((error as InvalidRequestError).errors).toEqual(scheduleProblems(spec));
    }
    expect(() => scheduledTimeFor({ cron: '0 8 * * *', timezone: 'UTC', end_at: 'never' }, at('2026-01-01T00:00:00Z'))).toThrow(InvalidRequestError);
  });
});

describe('nextRuns', () => {
  it('gives 08:00 Berlin time on Mondays across the March change: 07:00Z in winter, 06:00Z in summer', () => {
    expect(isoOf(nextRuns({ cron: '0 8 * * 1', timezone: BERLIN }, at('2026-03-14T00:00:00Z')))).toEqual([
      '2026-03-16T07:00:00.000Z',
      '2026-03-23T07:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
      '2026-04-06T06:00:00.000Z',
      '2026-04-13T06:00:00.000Z',
    ]);
  });

  it('gives 08:00 Berlin time on Mondays across the October change', () => {
    expect(isoOf(nextRuns({ cron: '0 8 * * MON', timezone: BERLIN }, at('2026-10-10T00:00:00Z')))).toEqual([
      '2026-10-12T06:00:00.000Z',
      '2026-10-19T06:00:00.000Z',
      '2026-10-26T07:00:00.000Z',
      '2026-11-02T07:00:00.000Z',
      '2026-11-09T07:00:00.000Z',
    ]);
  });

  it('runs 02:30 once at the gap\'s end, 03:00 CEST, on the day Berlin springs from 02:00 to 03:00', () => {
    expect(isoOf(nextRuns({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-03-27T12:00:00Z'), 4))).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST: 2026-03-29 has no 02:30
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
      '2026-03-31T00:30:00.000Z',
    ]);
  });

  // The first valid instant after each 2026 spring-forward gap: Berlin 03:00 CEST = 01:00Z on
  // 2026-03-29, New York 03:00 EDT = 07:00Z on 2026-03-08.
  it.each([
    ['30 2 * * *', BERLIN, '2026-03-28T23:30:00Z', ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'], [false, true]],
    ['0 2 * * *', BERLIN, '2026-03-28T23:30:00Z', ['2026-03-29T01:00:00.000Z', '2026-03-30T00:00:00.000Z'], [false, true]],
    ['15,45 2 * * *', BERLIN, '2026-03-28T23:30:00Z', ['2026-03-29T01:00:00.000Z', '2026-03-30T00:15:00.000Z', '2026-03-30T00:45:00.000Z'], [false, true, true]],
    ['0 3 * * *', BERLIN, '2026-03-28T23:30:00Z', ['2026-03-29T01:00:00.000Z', '2026-03-30T01:00:00.000Z'], [true, true]],
    ['*/15 * * * *', BERLIN, '2026-03-29T00:30:00Z', ['2026-03-29T00:45:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T01:15:00.000Z'], [true, true, true]],
    ['30 2 * * *', NEW_YORK, '2026-03-08T05:30:00Z', ['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z'], [false, true]],
    ['0 2 * * *', NEW_YORK, '2026-03-08T05:30:00Z', ['2026-03-08T07:00:00.000Z', '2026-03-09T06:00:00.000Z'], [false, true]],
    ['15,45 2 * * *', NEW_YORK, '2026-03-08T05:30:00Z', ['2026-03-08T07:00:00.000Z', '2026-03-09T06:15:00.000Z', '2026-03-09T06:45:00.000Z'], [false, true, true]],
    ['0 3 * * *', NEW_YORK, '2026-03-08T05:30:00Z', ['2026-03-08T07:00:00.000Z', '2026-03-09T07:00:00.000Z'], [true, true]],
    ['*/15 * * * *', NEW_YORK, '2026-03-08T06:30:00Z', ['2026-03-08T06:45:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T07:15:00.000Z'], [true, true, true]],
  ])('on the spring-forward day, %s in %s runs once per gap, at its end: %j', (cron, timezone, after, expected, fired) => {
    const spec = { cron, timezone };
    const runs = nextRuns(spec, at(after), expected.length);

    expect(isoOf(runs)).toEqual(expected);
    expect(runs.map((run) => firedByEventBridge(spec, run))).toEqual(fired);
  });

  it('folds every skipped time of a gap and the run at its end into one run', () => {
    // 02:00, 02:15, 02:30 and 02:45 do not exist; 03:00 is a run of its own: one run at 03:00.
    const runs = nextRuns({ cron: '*/15 * * * *', timezone: BERLIN }, at('2026-03-29T00:50:00Z'), 2);

    expect(isoOf(runs)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T01:15:00.000Z']);
    // Skipped times only, several of them, and no run of its own at 03:00: still one run.
    expect(isoOf(nextRuns({ cron: '0-59/10 2 * * *', timezone: BERLIN }, at('2026-03-28T12:00:00Z'), 2))).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:00:00.000Z']);
    // A list over the gap and the hour after it: 02:30 moves to 03:00, 03:30 stays.
    expect(isoOf(nextRuns({ cron: '30 1-3 * * *', timezone: BERLIN }, at('2026-03-28T23:00:00Z'), 4))).toEqual([
      '2026-03-29T00:30:00.000Z', // 01:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST, for the skipped 02:30
      '2026-03-29T01:30:00.000Z', // 03:30 CEST
      '2026-03-29T23:30:00.000Z', // 01:30 CEST on 2026-03-30
    ]);
  });

  it('adds no run for a schedule with no time in the gap, or whose day is not the gap\'s', () => {
    expect(isoOf(nextRuns({ cron: '0 1,4 * * *', timezone: BERLIN }, at('2026-03-28T23:30:00Z'), 2))).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T02:00:00.000Z']);
    // 2026-03-29 is a Sunday: a Monday-to-Friday 02:30 has nothing to move.
    expect(isoOf(nextRuns({ cron: '30 2 * * 1-5', timezone: BERLIN }, at('2026-03-27T12:00:00Z'), 1))).toEqual(['2026-03-30T00:30:00.000Z']);
  });

  it('computes gap runs itself, as croner moves 02:30 to 03:00 but drops 02:15 and 02:45 (canary: fails if croner changes this)', () => {
    const moved = new Cron('30 2 * * *', { paused: true, mode: '5-part', timezone: BERLIN });
    const dropped = new Cron('15,45 2 * * *', { paused: true, mode: '5-part', timezone: BERLIN });

    expect(isoOf(moved.nextRuns(2, at('2026-03-28T12:00:00Z')))).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(isoOf(dropped.nextRuns(1, at('2026-03-28T12:00:00Z')))).toEqual(['2026-03-30T00:15:00.000Z']);
    expect(isoOf(nextRuns({ cron: '15,45 2 * * *', timezone: BERLIN }, at('2026-03-28T12:00:00Z'), 1))).toEqual(['2026-03-29T01:00:00.000Z']);
  });

  it('runs a 30-minute gap\'s time at its end too (Lord Howe, 02:00 to 02:30 on 2026-10-04)', () => {
    expect(isoOf(nextRuns({ cron: '15 2 * * *', timezone: 'Australia/Lord_Howe' }, at('2026-10-02T12:00:00Z'), 3))).toEqual([
      '2026-10-02T15:45:00.000Z', // 02:15 +10:30
      '2026-10-03T15:30:00.000Z', // 02:30 +11, the end of the gap
      '2026-10-04T15:15:00.000Z', // 02:15 +11
    ]);
  });

  it('runs 02:30 once, at its first occurrence, on the day Berlin repeats 02:00-03:00', () => {
    expect(isoOf(nextRuns({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-10-23T12:00:00Z'), 3))).toEqual([
      '2026-10-24T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T00:30:00.000Z', // the first 02:30 (CEST), not also 01:30Z (CET)
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ]);
  });

  it('runs a list through the repeated hour once too, where croner would run it twice', () => {
    const spec = { cron: '30 2,3 * * *', timezone: BERLIN };
    const croner = new Cron(spec.cron, { paused: true, mode: '5-part', timezone: BERLIN });

    expect(isoOf(croner.nextRuns(3, at('2026-10-24T12:00:00Z')))).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00.000Z']);
    expect(isoOf(nextRuns(spec, at('2026-10-24T12:00:00Z'), 3))).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('runs 02:30 at 03:00 in New York on the second Sunday of March and 01:30 once on the first Sunday of November', () => {
    expect(isoOf(nextRuns({ cron: '30 2 * * *', timezone: NEW_YORK }, at('2026-03-07T00:00:00Z'), 3))).toEqual(['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
    expect(isoOf(nextRuns({ cron: '30 1 * * *', timezone: NEW_YORK }, at('2026-10-31T12:00:00Z'), 2))).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });

  it('runs every half hour through New York changes: the missing 02:00 and 02:30 are the run at 03:00, the repeated hour runs once', () => {
    const spec = { cron: '*/30 * * * *', timezone: NEW_YORK };

    expect(isoOf(nextRuns(spec, at('2026-03-08T05:45:00Z'), 4))).toEqual([
      '2026-03-08T06:00:00.000Z', // 01:00 EST
      '2026-03-08T06:30:00.000Z', // 01:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT, once for 02:00, 02:30 and 03:00
      '2026-03-08T07:30:00.000Z',
    ]);
    expect(isoOf(nextRuns(spec, at('2026-11-01T04:15:00Z'), 5))).toEqual([
      '2026-11-01T04:30:00.000Z', // 00:30 EDT
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T05:30:00.000Z', // 01:30 EDT; 01:00 and 01:30 EST do not run again
      '2026-11-01T07:00:00.000Z', // 02:00 EST
      '2026-11-01T07:30:00.000Z',
    ]);
  });

  it('reads the zone of the schedule, half-hour offsets included', () => {
    expect(isoOf(nextRuns({ cron: '0 9 * * *', timezone: 'Asia/Kolkata' }, at('2026-01-01T00:00:00Z'), 2))).toEqual(['2026-01-01T03:30:00.000Z', '2026-01-02T03:30:00.000Z']);
    expect(isoOf(nextRuns({ cron: '@weekly', timezone: 'US/Eastern' }, at('2026-01-01T00:00:00Z'), 1))).toEqual(['2026-01-04T05:00:00.000Z']);
  });

  it('gives times strictly after `after`', () => {
    expect(isoOf(nextRuns({ cron: '0 8 * * *', timezone: 'UTC' }, at('2026-01-05T08:00:00Z'), 1))).toEqual(['2026-01-06T08:00:00.000Z']);
    expect(isoOf(nextRuns({ cron: '0 8 * * *', timezone: 'UTC' }, at('2026-01-05T07:59:59.999Z'), 1))).toEqual(['2026-01-05T08:00:00.000Z']);
  });

  it('starts at start_at, a run exactly at start_at included', () => {
    const spec = { cron: '0 8 * * *', timezone: 'UTC', start_at: '2026-02-01T08:00:00Z' };

    expect(isoOf(nextRuns(spec, at('2026-01-01T00:00:00Z'), 2))).toEqual(['2026-02-01T08:00:00.000Z', '2026-02-02T08:00:00.000Z']);
    expect(isoOf(nextRuns({ ...spec, start_at: '2026-02-01T08:00:01Z' }, at('2026-01-01T00:00:00Z'), 1))).toEqual(['2026-02-02T08:00:00.000Z']);
  });

  it('stops at end_at, a run exactly at end_at included, giving fewer than asked', () => {
    const spec = { cron: '0 8 * * *', timezone: 'UTC', end_at: '2026-01-07T08:00:00Z' };

    expect(isoOf(nextRuns(spec, at('2026-01-04T12:00:00Z')))).toEqual(['2026-01-05T08:00:00.000Z', '2026-01-06T08:00:00.000Z', '2026-01-07T08:00:00.000Z']);
    expect(nextRuns(spec, at('2026-01-07T08:00:00Z'))).toEqual([]);
  });

  it('gives as many as asked, and none for zero', () => {
    expect(nextRuns({ cron: '* * * * *', timezone: 'UTC' }, at('2026-01-01T00:00:00Z'), 12)).toHaveLength(12);
    expect(nextRuns({ cron: '* * * * *', timezone: 'UTC' }, at('2026-01-01T00:00:00Z'), 0)).toEqual([]);
  });
});

describe('scheduledTimeFor', () => {
  const daily = { cron: '0 8 * * *', timezone: BERLIN };

  it('maps an on-time fire to its time', () => {
    expect(scheduledTimeFor(daily, at('2026-01-05T07:00:00Z'))?.toISOString()).toBe('2026-01-05T07:00:00.000Z');
  });

  it('maps a late fire (within the minute, or a retry hours later) back to its time', () => {
    expect(scheduledTimeFor(daily, at('2026-01-05T07:00:59.900Z'))?.toISOString()).toBe('2026-01-05T07:00:00.000Z');
    expect(scheduledTimeFor(daily, at('2026-01-05T10:30:00Z'))?.toISOString()).toBe('2026-01-05T07:00:00.000Z');
  });

  it('maps a fire up to the tolerance early to the time it is for, an earlier one to the time before', () => {
    expect(scheduledTimeFor(daily, at('2026-01-05T06:59:57Z'))?.toISOString()).toBe('2026-01-05T07:00:00.000Z');
    expect(scheduledTimeFor(daily, at('2026-01-05T06:59:50Z'))?.toISOString()).toBe('2026-01-04T07:00:00.000Z');
    expect(scheduledTimeFor(daily, at('2026-01-05T06:59:57Z'), 0)?.toISOString()).toBe('2026-01-04T07:00:00.000Z');
  });

  it('maps both fires of a double fire to one time, so the runner starts one task', () => {
    const minutely = { cron: '* * * * *', timezone: BERLIN };
    const first = scheduledTimeFor(minutely, at('2026-01-05T07:00:00.200Z'));
    const second = scheduledTimeFor(minutely, at('2026-01-05T07:00:41.000Z'));

    expect(first?.toISOString()).toBe('2026-01-05T07:00:00.000Z');
    expect(second).toEqual(first);
  });

  it('never maps to a second pass through a repeated hour, which EventBridge does not fire', () => {
    // 01:00Z and 01:30Z on 2026-10-25 are Berlin's second 02:00 and 02:30.
    expect(scheduledTimeFor({ cron: '*/30 * * * *', timezone: BERLIN }, at('2026-10-25T01:35:00Z'))?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('maps the one-time fire for a gap run to the gap\'s end, and later fires that day to it too', () => {
    const spec = { cron: '30 2 * * *', timezone: BERLIN };

    expect(scheduledTimeFor(spec, at('2026-03-29T01:00:00.300Z'))?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(scheduledTimeFor(spec, at('2026-03-29T12:00:00Z'))?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(scheduledTimeFor(spec, at('2026-03-29T00:59:00Z'))?.toISOString()).toBe('2026-03-28T01:30:00.000Z');
    // Gap runs keep to the window like any other run.
    expect(scheduledTimeFor({ ...spec, start_at: '2026-03-29T01:00:00.001Z' }, at('2026-03-29T12:00:00Z'))).toBeUndefined();
  });

  it('answers nothing before start_at, and the last run for a fire after end_at', () => {
    const window = { ...daily, start_at: '2026-01-05T00:00:00Z', end_at: '2026-01-07T12:00:00Z' };

    expect(scheduledTimeFor(window, at('2026-01-04T07:00:00Z'))).toBeUndefined();
    expect(scheduledTimeFor(window, at('2026-01-05T06:00:00Z'))).toBeUndefined();
    expect(scheduledTimeFor(window, at('2026-01-20T07:00:00Z'))?.toISOString()).toBe('2026-01-07T07:00:00.000Z');
  });
});

describe('firedByEventBridge', () => {
  it('is true for an ordinary run, on a DST day too', () => {
    expect(firedByEventBridge({ cron: '0 8 * * 1', timezone: BERLIN }, at('2026-03-30T06:00:00Z'))).toBe(true);
    expect(firedByEventBridge({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-10-25T00:30:00Z'))).toBe(true);
  });

  it('is false for a run at the gap\'s end that stands for skipped times only, which needs a one-time schedule', () => {
    expect(firedByEventBridge({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-03-29T01:00:00Z'))).toBe(false);
    expect(firedByEventBridge({ cron: '15,45 2 * * *', timezone: NEW_YORK }, at('2026-03-08T07:00:00Z'))).toBe(false);
  });

  it('is true for a run at the gap\'s end that the schedule has anyway, skipped times folded in', () => {
    expect(firedByEventBridge({ cron: '*/15 * * * *', timezone: BERLIN }, at('2026-03-29T01:00:00Z'))).toBe(true);
    expect(firedByEventBridge({ cron: '0 2,3 * * *', timezone: NEW_YORK }, at('2026-03-08T07:00:00Z'))).toBe(true);
  });

  it('is false for the second pass through a repeated hour, an instant that is no run, and one outside the window', () => {
    expect(firedByEventBridge({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-10-25T01:30:00Z'))).toBe(false);
    expect(firedByEventBridge({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-01-05T01:31:00Z'))).toBe(false);
    expect(firedByEventBridge({ cron: '30 2 * * *', timezone: BERLIN }, at('2026-01-05T01:30:30Z'))).toBe(false);
    expect(firedByEventBridge({ cron: '30 2 * * *', timezone: BERLIN, end_at: '2026-01-04T00:00:00Z' }, at('2026-01-05T01:30:00Z'))).toBe(false);
  });

  it('refuses an invalid schedule', () => {
    expect(() => firedByEventBridge({ cron: '0 25 * * *', timezone: BERLIN }, at('2026-01-05T01:30:00Z'))).toThrow(InvalidRequestError);
  });
});

describe('runsSince', () => {
  const daily = { cron: '0 8 * * *', timezone: BERLIN };

  it('after three days down: one catch-up run now, three recorded as missed, oldest first', () => {
    expect(runsSince(daily, at('2026-01-05T07:00:00Z'), at('2026-01-09T07:00:30Z'))).toEqual({
      due: at('2026-01-09T07:00:00Z'),
      missed: [at('2026-01-06T07:00:00Z'), at('2026-01-07T07:00:00Z'), at('2026-01-08T07:00:00Z')],
      missedTruncated: 0,
    });
  });

  it('on time: the due run and nothing missed', () => {
    expect(runsSince(daily, at('2026-01-05T07:00:00Z'), at('2026-01-06T07:00:00Z'))).toEqual({ due: at('2026-01-06T07:00:00Z'), missed: [], missedTruncated: 0 });
  });

  it('nothing due when the last handled time is the latest, or no time has come since', () => {
    const nothing = { due: undefined, missed: [], missedTruncated: 0 };

    expect(runsSince(daily, at('2026-01-06T07:00:00Z'), at('2026-01-06T07:00:00Z'))).toEqual(nothing);
    expect(runsSince(daily, at('2026-01-06T07:00:00Z'), at('2026-01-07T06:59:59Z'))).toEqual(nothing);
  });

  it('for a new trigger, only the due run: nothing before it existed was missed', () => {
    expect(runsSince(daily, undefined, at('2026-01-09T09:00:00Z'))).toEqual({ due: at('2026-01-09T07:00:00Z'), missed: [], missedTruncated: 0 });
    expect(runsSince(daily, at('2026-01-09T08:00:00Z'), at('2026-01-09T09:00:00Z'))).toEqual({ due: undefined, missed: [], missedTruncated: 0 });
  });

  it('lists at most maxMissed, oldest first, and counts the rest', () => {
    expect(runsSince(daily, at('2026-01-05T07:00:00Z'), at('2026-01-09T07:00:30Z'), 2)).toEqual({
      due: at('2026-01-09T07:00:00Z'),
      missed: [at('2026-01-06T07:00:00Z'), at('2026-01-07T07:00:00Z')],
      missedTruncated: 1,
    });
    expect(runsSince(daily, at('2026-01-05T07:00:00Z'), at('2026-01-09T07:00:30Z'), 0)).toEqual({ due: at('2026-01-09T07:00:00Z'), missed: [], missedTruncated: 3 });
  });

  it('keeps to the window: nothing before start_at is missed, nothing after end_at is due', () => {
    const window = { ...daily, start_at: '2026-01-07T00:00:00Z', end_at: '2026-01-08T12:00:00Z' };

    expect(runsSince(window, at('2026-01-01T07:00:00Z'), at('2026-01-20T00:00:00Z'))).toEqual({ due: at('2026-01-08T07:00:00Z'), missed: [at('2026-01-07T07:00:00Z')], missedTruncated: 0 });
  });

  it('lists and counts a gap run among the missed ones', () => {
    const spec = { cron: '30 2 * * *', timezone: BERLIN };
    const missed = [at('2026-03-28T01:30:00Z'), at('2026-03-29T01:00:00Z'), at('2026-03-30T00:30:00Z')];

    expect(runsSince(spec, at('2026-03-27T01:30:00Z'), at('2026-03-31T00:30:00Z'))).toEqual({ due: at('2026-03-31T00:30:00Z'), missed, missedTruncated: 0 });
    expect(runsSince(spec, at('2026-03-27T01:30:00Z'), at('2026-03-31T00:30:00Z'), 1)).toEqual({ due: at('2026-03-31T00:30:00Z'), missed: missed.slice(0, 1), missedTruncated: 2 });
    expect(runsSince(spec, at('2026-03-28T01:30:00Z'), at('2026-03-29T01:00:00Z'))).toEqual({ due: at('2026-03-29T01:00:00Z'), missed: [], missedTruncated: 0 });
  });

  it('counts a year of every-minute downtime without listing it, fast, across the DST changes', () => {
    const started = performance.now();
    const result = runsSince({ cron: '* * * * *', timezone: BERLIN }, at('2025-06-01T00:00:00Z'), at('2026-06-01T00:00:00Z'));
    const elapsed = performance.now() - started;

    // 525,600 minutes, less the 60 of the repeated hour of 2025-10-26 (run once), less the due one.
    // The skipped hour of 2026-03-29 adds none: its times are the run at 03:00, a run anyway.
    expect(result.due).toEqual(at('2026-06-01T00:00:00Z'));
    expect(result.missed).toHaveLength(100);
    expect(result.missed[0]).toEqual(at('2025-06-01T00:01:00Z'));
    expect(result.missed[99]).toEqual(at('2025-06-01T01:40:00Z'));
    expect(result.missedTruncated).toBe(525_600 - 60 - 1 - 100);
    expect(elapsed).toBeLessThan(3_000);
  });

  it('counts the same year in UTC, where every minute runs', () => {
    const result = runsSince({ cron: '* * * * *', timezone: 'UTC' }, at('2025-06-01T00:00:00Z'), at('2026-06-01T00:00:00Z'), 10);

    expect(result.missed).toHaveLength(10);
    expect(result.missedTruncated).toBe(525_600 - 1 - 10);
  });

  it('counts a sparse schedule across years', () => {
    // Mondays at 08:00 Berlin from Monday 2020-01-06 to Monday 2029-12-31: 521 weeks, the last one due.
    const result = runsSince({ cron: '0 8 * * 1', timezone: BERLIN }, at('2020-01-06T07:00:00Z'), at('2029-12-31T07:00:00Z'), 5);

    expect(result.due).toEqual(at('2029-12-31T07:00:00Z'));
    expect(result.missed).toHaveLength(5);
    expect(result.missed.length + result.missedTruncated).toBe(520);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over generated schedules, zones with DST changes of an hour and of 30 minutes, and
// times around those changes.

const ZONES = ['UTC', BERLIN, NEW_YORK, 'Australia/Lord_Howe', 'America/Santiago', 'Asia/Kolkata', 'Pacific/Chatham'];
// Instants near DST changes of those zones in 2026, so the properties cross them often.
const CHANGES = ['2026-03-08T07:00:00Z', '2026-03-29T01:00:00Z', '2026-04-04T15:00:00Z', '2026-04-05T03:00:00Z', '2026-09-05T04:00:00Z', '2026-10-03T16:00:00Z', '2026-10-25T01:00:00Z', '2026-11-01T06:00:00Z'].map(Date.parse);

const minutes = fc.constantFrom('0', '30', '*/15', '0,30', '5-10', '10-50/20', '*/20', '59');
const hours = fc.constantFrom('*', '0', '1', '2', '1-3', '*/6', '8-18/2', '2,14', '0-3');
const days = fc.oneof(
  fc.record({ dom: fc.constantFrom('*', '1', '1-15', '*/2', '10,20', '29-31', '25-31'), dow: fc.constant('*') }),
  fc.record({ dom: fc.constant('*'), dow: fc.constantFrom('1', '1-5', 'SAT,SUN', '0', '7', '5-7', '*/2', 'mon-fri') }),
);
const months = fc.constantFrom('*', '*', 'JAN-APR', '3,10', '*/2', '9-11');
const expressions = fc.tuple(minutes, hours, days, months).map(([minute, hour, { dom, dow }, month]) => `${minute} ${hour} ${dom} ${month} ${dow}`);
const instants = fc.tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -72 * 60, max: 72 * 60 })).map(([change, offsetMinutes]) => change + offsetMinutes * 60_000 + 17_000);

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset at `t`, in ms, read from Intl. */
function offsetOf(timezone: string, t: number): number {
  let clock = clocks.get(timezone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    clocks.set(timezone, clock);
  }
  const parts = Object.fromEntries(clock.formatToParts(t).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(t / 1000) * 1000;
}

/**
 * The contract, read minute by minute from `from` to `until` (both on whole minutes): a minute is
 * a run when its wall time matches (croner in UTC reads the wall time as its own) and was not shown
 * before, or when the clock jumped forward to it over a wall time that matches.
 */
function referenceRuns(cron: string, timezone: string, from: number, until: number): Date[] {
  const wallCron = new Cron(cron, { paused: true, mode: '5-part', timezone: 'UTC' });
  const runs: Date[] = [];
  const seen = new Set<number>();
  let previousWall = from - 60_000 + offsetOf(timezone, from - 60_000);
  for (let t = from - 60_000 * 24 * 60; t < from; t += 60_000) seen.add(t + offsetOf(timezone, t));
  for (let t = from; t <= until; t += 60_000) {
    const wall = t + offsetOf(timezone, t);
    let run = wallCron.match(new Date(wall)) && !seen.has(wall);
    for (let skipped = previousWall + 60_000; skipped < wall && !run; skipped += 60_000) run = wallCron.match(new Date(skipped));
    if (run) runs.push(new Date(t));
    seen.add(wall);
    previousWall = wall;
  }
  return runs;
}

describe('properties', () => {
  it('next runs are strictly increasing, after `after`, within the window, and each is its own scheduled time', () => {
    fc.assert(
      fc.property(expressions, fc.constantFrom(...ZONES), instants, fc.option(instants), fc.option(fc.integer({ min: 1, max: 90 * 24 * 60 })), (cron, timezone, after, start, length) => {
        const start_at = start === null ? undefined : new Date(start).toISOString();
        const end_at = length === null ? undefined : new Date((start ?? after) + length * 60_000).toISOString();
        const spec = { cron, timezone, start_at, end_at };
        fc.pre(scheduleProblems(spec).length === 0);

        const runs = nextRuns(spec, new Date(after), 8).map((date) => date.getTime());

        runs.forEach((run, index) => {
          expect(run).toBeGreaterThan(index === 0 ? after : runs[index - 1]);
          if (start !== null) expect(run).toBeGreaterThanOrEqual(start);
          if (end_at !== undefined) expect(run).toBeLessThanOrEqual(Date.parse(end_at));
          expect(scheduledTimeFor(spec, new Date(run))?.getTime()).toBe(run);
        });
        if (end_at === undefined) expect(runs).toHaveLength(8);
      }),
      { numRuns: 150 },
    );
  });

  it('in UTC, where no DST applies, the runs are exactly croner’s', () => {
    fc.assert(
      fc.property(expressions, instants, (cron, after) => {
        fc.pre(scheduleProblems({ cron, timezone: 'UTC' }).length === 0);
        const croner = new Cron(cron, { paused: true, mode: '5-part', timezone: 'UTC' });

        expect(isoOf(nextRuns({ cron, timezone: 'UTC' }, new Date(after), 10))).toEqual(isoOf(croner.nextRuns(10, new Date(after))));
      }),
      { numRuns: 100 },
    );
  });

  it('a run is fired by EventBridge (a wall time of the schedule, at its first occurrence) or lies exactly at the end of a DST gap', () => {
    fc.assert(
      fc.property(expressions, fc.constantFrom(...ZONES), instants, (cron, timezone, after) => {
        fc.pre(scheduleProblems({ cron, timezone }).length === 0);
        const spec = { cron, timezone };
        const local = new Intl.DateTimeFormat('sv-SE', { timeZone: timezone, dateStyle: 'short', timeStyle: 'short' });
        const runs = nextRuns(spec, new Date(after), 20);
        const walls = runs.map((run) => local.format(run));
        const croner = new Cron(cron, { paused: true, mode: '5-part', timezone });

        expect(new Set(walls).size).toBe(walls.length);
        runs.forEach((run) => {
          if (firedByEventBridge(spec, run)) expect(croner.match(run)).toBe(true);
          else expect(offsetOf(timezone, run.getTime())).toBeGreaterThan(offsetOf(timezone, run.getTime() - 1));
        });
      }),
      { numRuns: 100 },
    );
  });

  it('the runs are those of a minute-by-minute reading of the zone\'s clock', () => {
    fc.assert(
      fc.property(expressions, fc.constantFrom(...ZONES), instants, (cron, timezone, after) => {
        fc.pre(scheduleProblems({ cron, timezone }).length === 0);
        const from = Math.ceil(after / 60_000) * 60_000;
        const until = from + 36 * 60 * 60_000;

        const runs = nextRuns({ cron, timezone, end_at: new Date(until).toISOString() }, new Date(after), 36 * 60);

        expect(isoOf(runs)).toEqual(isoOf(referenceRuns(cron, timezone, from, until)));
      }),
      { numRuns: 40 },
    );
  });

  it('counting missed runs agrees with listing them, across DST changes', () => {
    fc.assert(
      fc.property(expressions, fc.constantFrom(...ZONES), instants, fc.integer({ min: 1, max: 3 * 24 * 60 }), (cron, timezone, from, lengthMinutes) => {
        fc.pre(scheduleProblems({ cron, timezone }).length === 0);
        const spec = { cron, timezone };
        const lastHandled = new Date(from);
        const now = new Date(from + lengthMinutes * 60_000);

        const listed = runsSince(spec, lastHandled, now, 100_000);
        const counted = runsSince(spec, lastHandled, now, 0);
        const partly = runsSince(spec, lastHandled, now, 3);

        expect(listed.missedTruncated).toBe(0);
        expect(counted.missedTruncated).toBe(listed.missed.length);
        expect(partly.missed).toEqual(listed.missed.slice(0, 3));
        expect(partly.missed.length + partly.missedTruncated).toBe(listed.missed.length);
        expect(counted.due).toEqual(listed.due);
        if (listed.due) expect(isoOf([...listed.missed, listed.due])).toEqual(isoOf(nextRuns(spec, lastHandled, listed.missed.length + 1)));
      }),
      { numRuns: 80 },
    );
  });
});
