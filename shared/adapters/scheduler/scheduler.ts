import { getOptionalStringFromEnv, once } from '#shared/config/env';
import type { Scheduler } from '#shared/domain/scheduler';
import { SCHEDULER_ENV, type SchedulerBackend } from '#shared/adapters/scheduler/environment';
import { eventBridgeScheduler } from '#shared/adapters/scheduler/eventbridge-scheduler';
import { tableScheduler } from '#shared/adapters/scheduler/table-scheduler';

const BACKENDS: Record<SchedulerBackend, () => Scheduler> = {
  eventbridge: eventBridgeScheduler,
  table: tableScheduler,
};

/**
 * The process's scheduler: EventBridge Scheduler on AWS (the CDK stack sets
 * `SCHEDULER_BACKEND=eventbridge`), the table with the local runner in the local runtime (`table`).
 * Any other value throws at first use.
 */
export const scheduler = once((): Scheduler => {
  const backend = getOptionalStringFromEnv(SCHEDULER_ENV.backend);
  if (backend === undefined || !Object.hasOwn(BACKENDS, backend)) {
    throw new Error(`Environment variable ${SCHEDULER_ENV.backend} must be one of ${Object.keys(BACKENDS).join(', ')}; got ${backend === undefined ? 'nothing' : `'${backend}'`}.`);
  }
  return BACKENDS[backend as SchedulerBackend]();
});
