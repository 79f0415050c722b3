import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { scheduleKeys } from '#shared/adapters/scheduler/schedule-keys';
import { TableScheduler } from '#shared/adapters/scheduler/table-scheduler';
import type { OneTimeSchedule } from '#shared/domain/scheduler';
import type { Provisioned } from '#lib/local/provision';
import { ScheduleRunner } from '#lib/local/schedule-runner';
import { provisionForTest } from '../support/provisioned';
import { invocations } from '../support/recording-schedule-target';

const TARGETS = { 'approval-expiry': 'test/support/recording-schedule-target.ts', 'session-idle-close': 'test/support/recording-schedule-target.ts', 'trigger-fire': 'test/support/recording-schedule-target.ts' } as const;
const ROUND_MS = 50;

let provisioned: Provisioned;
let store: TableScheduler;
const runners: ScheduleRunner[] = [];

const uniqueName = (label: string) => `${label}-${randomBytes(5).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expiryIn(ms: number, name = uniqueName('expiry'), payload: Record<string, unknown> = {}): OneTimeSchedule {
  return { name, at: new Date(Date.now() + ms), target: 'approval-expiry', payload: { id: name, ...payload } };
}

function runner(options: ConstructorParameters<typeof ScheduleRunner>[2] = {}): ScheduleRunner {
  const started = new ScheduleRunner(TARGETS, ROUND_MS, { store, ...options });
  runners.push(started);
  started.start();
  return started;
}

const invocationsOf = (name: string) => invocations.filter((invocation) => invocation.event.id === name);

async function item(name: string) {
  const { Item } = await documentClient().send(new GetCommand({ TableName: provisioned.tableName, Key: scheduleKeys.schedule(name) }));
  return Item;
}

/** Polls `check` until it holds or `timeoutMs` (at most 5 s) passed; returns whether it held. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}

describe('table scheduler with DynamoDB Local', () => {
  beforeAll(async () => {
    provisioned = await provisionForTest('schedules');
    store = new TableScheduler(documentClient(), provisioned.tableName);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((started) => started.stop()));
    vi.restoreAllMocks();
  });

  describe('the adapter', () => {
    it('stores a schedule with its due-time index entry', async () => {
      const schedule = expiryIn(60_000);

      await store.scheduleOnce(schedule);

      expect(await item(schedule.name)).toMatchObject({
        pk: `SCHEDULE#${schedule.name}`,
        sk: 'SCHEDULE',
        gsi3pk: 'SCHEDULES_DUE',
        gsi3sk: `${schedule.at.toISOString()}#${schedule.name}`,
        target: 'approval-expiry',
        payload: schedule.payload,
        attempts: 0,
      });
    });

    it('keeps the first schedule when the same name is scheduled again', async () => {
      const first = expiryIn(60_000, uniqueName('twice'), { version: 1 });

      await store.scheduleOnce(first);
      await store.scheduleOnce({ ...first, at: new Date(first.at.getTime() + 1_000), payload: { id: first.name, version: 2 } });

      expect(await item(first.name)).toMatchObject({ at: first.at.toISOString(), payload: { version: 1 } });
    });

    it('cancels a schedule, and cancelling an absent one is no error', async () => {
      const schedule = expiryIn(60_000);
      await store.scheduleOnce(schedule);

      await store.cancel(schedule.name);
      await store.cancel(schedule.name);
      await store.cancel(uniqueName('never-scheduled'));

      expect(await item(schedule.name)).toBeUndefined();
    });

    it('lists only due schedules, earliest first, including one due exactly now', async () => {
      const now = new Date(Date.now() + 3_600_000);
      const earlier = { ...expiryIn(0), at: new Date(now.getTime() - 1_000) };
      const exactly = { ...expiryIn(0), at: now };
      const later = { ...expiryIn(0), at: new Date(now.getTime() + 1) };
      for (const schedule of [later, exactly, earlier]) await store.scheduleOnce(schedule);

      const names = (await store.dueSchedules(now, 100)).map((schedule) => schedule.name);

      expect(names.filter((name) => [earlier.name, exactly.name, later.name].includes(name))).toEqual([earlier.name, exactly.name]);
      await Promise.all([earlier, exactly, later].map((schedule) => store.cancel(schedule.name)));
    });

    it('lets one run claim a schedule until the claim lapses', async () => {
      const schedule = expiryIn(0);
      await store.scheduleOnce(schedule);
      const now = new Date();

      const first = await store.claim(schedule.name, now, new Date(now.getTime() + 1_000));
      const second = await store.claim(schedule.name, now, new Date(now.getTime() + 1_000));
      const afterLapse = await store.claim(schedule.name, new Date(now.getTime() + 1_000), new Date(now.getTime() + 2_000));

      expect([first, second, afterLapse]).toEqual([true, false, true]);
      expect((await store.dueSchedules(new Date(now.getTime() + 1_500), 100)).map((due) => due.name)).not.toContain(schedule.name);
      await store.cancel(schedule.name);
      expect(await store.claim(schedule.name, new Date(now.getTime() + 5_000), new Date(now.getTime() + 6_000))).toBe(false);
    });
  });

  describe('the local runner', () => {
    it('invokes the target once with the payload as event, at or after its time, then deletes the schedule', async () => {
      const schedule = expiryIn(300, uniqueName('due'), { approval_id: 'a-1' });
      await store.scheduleOnce(schedule);
      runner();

      await sleep(150);
      expect(invocationsOf(schedule.name)).toEqual([]);

      expect(await eventually(() => invocationsOf(schedule.name).length > 0)).toBe(true);
      await sleep(6 * ROUND_MS);
      const runs = invocationsOf(schedule.name);
      expect(runs).toHaveLength(1);
      expect(runs[0].event).toEqual(schedule.payload);
      expect(runs[0].at).toBeGreaterThanOrEqual(schedule.at.getTime());
      expect(await eventually(async () => (await item(schedule.name)) === undefined)).toBe(true);
    });

    it('never runs a cancelled schedule', async () => {
      const schedule = expiryIn(200, uniqueName('cancelled'));
      await store.scheduleOnce(schedule);
      runner();

      await store.cancel(schedule.name);
      await sleep(200 + 8 * ROUND_MS);

      expect(invocationsOf(schedule.name)).toEqual([]);
    });

    it('runs a schedule once even with two runners polling the same table', async () => {
      const schedule = expiryIn(100, uniqueName('contended'));
      await store.scheduleOnce(schedule);
      runner();
      runner();

      expect(await eventually(async () => (await item(schedule.name)) === undefined)).toBe(true);
      await sleep(4 * ROUND_MS);

      expect(invocationsOf(schedule.name)).toHaveLength(1);
    });

    it('retries a failing target, then drops the schedule with an ERROR line after the last retry', async () => {
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const schedule = expiryIn(0, uniqueName('failing'), { fail: true });
      await store.scheduleOnce(schedule);
      runner({ maxRetryAttempts: 2 });

      expect(await eventually(async () => (await item(schedule.name)) === undefined)).toBe(true);
      await sleep(4 * ROUND_MS);

      expect(invocationsOf(schedule.name)).toHaveLength(3);
      const dropped = errors.mock.calls.map(([line]) => JSON.parse(String(line))).filter((line) => line.schedule === schedule.name);
      expect(dropped).toEqual([expect.objectContaining({ level: 'ERROR', message: expect.stringContaining('dropped'), attempts: 3 })]);
    });

    it('keeps counting failures in the item while it retries', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const schedule = expiryIn(0, uniqueName('retrying'), { fail: true });
      await store.scheduleOnce(schedule);
      const started = runner({ maxRetryAttempts: 1_000 });

      expect(await eventually(async () => ((await item(schedule.name))?.attempts ?? 0) >= 2)).toBe(true);
      await started.stop();

      expect(await item(schedule.name)).toMatchObject({ attempts: invocationsOf(schedule.name).length, last_error: expect.stringContaining('target failed') });
      expect((await item(schedule.name))?.claimed_until).toBeUndefined();
      await store.cancel(schedule.name);
    });
  });
  it('runs a recurring schedule with the scheduled time it is for, then moves it to its next run', async () => {
    const name = uniqueName('recurring');
    // Made two minutes ago: its first run (a whole minute) is already due.
    await store.scheduleRecurring({ name, cron: '* * * * *', timezone: 'UTC', target: 'trigger-fire', payload: { id: name } }, new Date(Date.now() - 120_000));
    const due = (await item(name))!.at as string;
    expect(Date.parse(due)).toBeLessThan(Date.now());
    runner();

    expect(await eventually(() => invocationsOf(name).length === 1)).toBe(true);
    expect(invocationsOf(name)[0].event).toEqual({ id: name, scheduled_time: due });
    // Moved past both its last run and now, not replayed minute by minute; still there.
    expect(await eventually(async () => ((await item(name))?.at as string) > new Date().toISOString())).toBe(true);
    const moved = await item(name);
    expect(new Date(moved!.at as string).getUTCSeconds()).toBe(0);
    expect(moved!.claimed_until).toBeUndefined();
    expect(await store.recurrenceOf(name)).toEqual({ cron: '* * * * *', timezone: 'UTC' });

    await store.cancel(name);
    expect(await item(name)).toBeUndefined();
  });
});
