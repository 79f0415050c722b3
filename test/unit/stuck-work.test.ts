import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentTimeoutError, MAX_BACKOFF_FACTOR, runningSince, taskVerdict, toolCallNeedsRedispatch, type ActiveTask, type SweepPolicy } from '#shared/domain/stuck-work';
import { detectorRunNeedsRedrive } from '#shared/scans/detector-run-redrive';

const policy: SweepPolicy = { taskDeadlineSeconds: 900, redispatchAfterSeconds: 300, stalledTaskSeconds: 180, stalledDetectorRunSeconds: 360 };
const now = new Date('2025-06-01T12:00:00.000Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

function task(fields: Partial<ActiveTask>): ActiveTask {
  return { status: 'running', created_at: ago(1000), updated_at: ago(1), started_at: ago(10), ...fields };
}

describe('stuck-work rules: tasks', () => {
  it('times out a task running longer than its deadline, even while it still writes', () => {
    const verdict = taskVerdict(task({ started_at: ago(901), updated_at: ago(1) }), now, policy);

    expect(verdict).toEqual({ action: 'time_out', deadlineSeconds: 900 });
  });

  it('leaves a task running within its deadline and writing', () => {
    expect(taskVerdict(task({ started_at: ago(899), updated_at: ago(5) }), now, policy)).toEqual({ action: 'none' });
  });

  it('counts the deadline from the last resume, not from the first start', () => {
    const resumed = task({ started_at: ago(5000), resumed_at: ago(60), updated_at: ago(1) });

    expect(runningSince(resumed)).toBe(ago(60));
    expect(taskVerdict(resumed, now, policy)).toEqual({ action: 'none' });
  });

  it('never times out a task parked on an approval, however long it waits', () => {
    expect(taskVerdict(task({ status: 'awaiting_approval', started_at: ago(86_400), updated_at: ago(86_400) }), now, policy)).toEqual({ action: 'none' });
  });

  it.each(['complete', 'failed', 'cancelled'] as const)('leaves a %s task alone', (status) => {
    expect(taskVerdict(task({ status, started_at: ago(86_400), updated_at: ago(86_400) }), now, policy)).toEqual({ action: 'none' });
  });

  it('sends a running task again when its worker stopped writing for longer than a worker lives', () => {
    expect(taskVerdict(task({ started_at: ago(200), updated_at: ago(181) }), now, policy)).toEqual({ action: 'redispatch', reason: 'worker_lost' });
    expect(taskVerdict(task({ started_at: ago(200), updated_at: ago(179) }), now, policy)).toEqual({ action: 'none' });
  });

  it('does not send a stalled running task again until the last re-send is as old as the stall threshold', () => {
    expect(taskVerdict(task({ started_at: ago(400), updated_at: ago(400), redispatched_at: ago(100) }), now, policy)).toEqual({ action: 'none' });
    expect(taskVerdict(task({ started_at: ago(400), updated_at: ago(400), redispatched_at: ago(181) }), now, policy)).toEqual({ action: 'redispatch', reason: 'worker_lost' });
  });

  it.each(['queued', 'pending'] as const)('sends a %s task again once its dispatch is older than the re-dispatch delay', (status) => {
    const waiting = { status, started_at: undefined, updated_at: ago(301) };

    expect(taskVerdict(task({ ...waiting, created_at: ago(301) }), now, policy)).toEqual({ action: 'redispatch', reason: 'dispatch_lost' });
    expect(taskVerdict(task({ ...waiting, created_at: ago(299) }), now, policy)).toEqual({ action: 'none' });
  });

  it('doubles the wait after each re-send of a waiting task, up to the cap', () => {
    const waiting = (count: number, sinceSeconds: number) => task({ status: 'queued', started_at: undefined, created_at: ago(100_000), redispatched_at: ago(sinceSeconds), redispatch_count: count });

    expect(taskVerdict(waiting(1, 599), now, policy).action).toBe('none');
    expect(taskVerdict(waiting(1, 601), now, policy).action).toBe('redispatch');
    expect(taskVerdict(waiting(2, 1199), now, policy).action).toBe('none');
    expect(taskVerdict(waiting(20, 300 * MAX_BACKOFF_FACTOR + 1), now, policy).action).toBe('redispatch');
  });

  it('for any timestamps, acts only on waiting or running tasks, and times out only running ones past the deadline', () => {
    const status = fc.constantFrom('queued', 'pending', 'running', 'awaiting_approval', 'complete', 'failed', 'cancelled' as const);
    const age = fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined });
    fc.assert(
      fc.property(status, age, age, age, age, fc.option(fc.nat(30), { nil: undefined }), (status, started, resumed, updated, redispatched, count) => {
        const candidate = task({ status, started_at: started === undefined ? undefined : ago(started), resumed_at: resumed === undefined ? undefined : ago(resumed), updated_at: ago(updated ?? 0), redispatched_at: redispatched === undefined ? undefined : ago(redispatched), redispatch_count: count });
        const verdict = taskVerdict(candidate, now, policy);
        const since = runningSince(candidate);
        if (!['queued', 'pending', 'running'].includes(status)) expect(verdict.action).toBe('none');
        if (verdict.action === 'time_out') expect(status === 'running' && since !== undefined && now.getTime() - Date.parse(since) > 900_000).toBe(true);
        if (status === 'running' && since !== undefined && now.getTime() - Date.parse(since) > 900_000) expect(verdict.action).toBe('time_out');
      }),
    );
  });

  it('fails a timed-out task with the agent_timeout code', () => {
    expect(agentTimeoutError(900)).toEqual({ code: 'agent_timeout', message: expect.stringContaining('900 seconds') });
  });
});

describe('stuck-work rules: scans and approved actions', () => {
  const scan = (status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled', createdSecondsAgo = 1000) => ({ status, created_at: ago(createdSecondsAgo) });

  it('re-drives a run left running by a worker dead for longer than the detector worker lives', () => {
    expect(detectorRunNeedsRedrive(scan('running'), { status: 'running', started_at: ago(361) }, now, policy)).toBe(true);
    expect(detectorRunNeedsRedrive(scan('running'), { status: 'running', started_at: ago(359) }, now, policy)).toBe(false);
    expect(detectorRunNeedsRedrive(scan('running'), { status: 'running', started_at: ago(1000), redriven_at: ago(10) }, now, policy)).toBe(false);
  });

  it('re-drives a run whose message was lost: still pending long after the scan was created', () => {
    expect(detectorRunNeedsRedrive(scan('pending', 301), { status: 'pending' }, now, policy)).toBe(true);
    expect(detectorRunNeedsRedrive(scan('pending', 299), { status: 'pending' }, now, policy)).toBe(false);
    expect(detectorRunNeedsRedrive(scan('running', 301), undefined, now, policy)).toBe(true);
  });

  it('leaves ended runs and ended scans alone', () => {
    expect(detectorRunNeedsRedrive(scan('running'), { status: 'completed', started_at: ago(5000) }, now, policy)).toBe(false);
    expect(detectorRunNeedsRedrive(scan('running'), { status: 'failed', started_at: ago(5000) }, now, policy)).toBe(false);
    for (const ended of ['completed', 'failed', 'cancelled'] as const) expect(detectorRunNeedsRedrive(scan(ended), { status: 'running', started_at: ago(5000) }, now, policy)).toBe(false);
  });

  it('re-sends an approved action not executed long after its approval', () => {
    expect(toolCallNeedsRedispatch({ created_at: ago(5000), resolved_at: ago(301) }, now, policy)).toBe(true);
    expect(toolCallNeedsRedispatch({ created_at: ago(5000), resolved_at: ago(299) }, now, policy)).toBe(false);
  });
});
