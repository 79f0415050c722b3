import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh module graph per test: `scheduler` is memoised per process. */
async function freshScheduler() {
  vi.resetModules();
  const [{ scheduler }, { EventBridgeScheduler }, { TableScheduler }] = await Promise.all([
    import('#shared/adapters/scheduler/scheduler'),
    import('#shared/adapters/scheduler/eventbridge-scheduler'),
    import('#shared/adapters/scheduler/table-scheduler'),
  ]);
  return { scheduler, EventBridgeScheduler, TableScheduler };
}

describe('scheduler backend selection', () => {
  beforeEach(() => {
    vi.stubEnv('AWS_REGION', 'eu-west-1');
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('uses EventBridge Scheduler when SCHEDULER_BACKEND=eventbridge', async () => {
    vi.stubEnv('SCHEDULER_BACKEND', 'eventbridge');
    vi.stubEnv('SCHEDULE_GROUP_NAME', 'g');
    vi.stubEnv('SCHEDULER_ROLE_ARN', 'arn:aws:iam::123456789012:role/r');
    vi.stubEnv('SCHEDULE_TARGET_ARN_APPROVAL_EXPIRY', 'arn:aws:lambda:eu-west-1:123456789012:function:f');
    vi.stubEnv('SCHEDULE_TARGET_ARN_SESSION_IDLE_CLOSE', 'arn:aws:lambda:eu-west-1:123456789012:function:g');
    vi.stubEnv('SCHEDULE_TARGET_ARN_TRIGGER_FIRE', 'arn:aws:lambda:eu-west-1:123456789012:function:h');
    const { scheduler, EventBridgeScheduler } = await freshScheduler();

    expect(scheduler()).toBeInstanceOf(EventBridgeScheduler);
    expect(scheduler()).toBe(scheduler());
  });

  it('uses the table when SCHEDULER_BACKEND=table', async () => {
    vi.stubEnv('SCHEDULER_BACKEND', 'table');
    vi.stubEnv('TABLE_NAME', 'gatehouse');
    const { scheduler, TableScheduler } = await freshScheduler();

    expect(scheduler()).toBeInstanceOf(TableScheduler);
  });

  it.each([['an unknown value', 'sqs'], ['nothing', '']])('throws a clear error at first use for %s', async (_, value) => {
    vi.stubEnv('SCHEDULER_BACKEND', value);
    const { scheduler } = await freshScheduler();

    expect(() => scheduler()).toThrow(/SCHEDULER_BACKEND must be one of eventbridge, table/);
  });
});
