import { taskSlotRepository } from '#shared/adapters/dynamodb/task-slot-repository';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { limits } from '#shared/config/limits';
import { taskWorker } from '#shared/config/topology';
import { deferDelaySeconds } from '#shared/domain/task-fairness';
import type { TaskMessage } from '#shared/domain/task-message';
import { effectiveLimits } from '#shared/services/tenant-limits';

/**
 * A lease outlives the worker's invocation by a margin: a run cannot take longer than that, so a
 * live run never loses its slot, and a dead worker's slot is free again soon after its timeout.
 */
export const LEASE_MS = (taskWorker.timeoutSeconds + 30) * 1000;

/**
 * Runs a task message only when its tenant is below its concurrency cap; otherwise sends it again
 * with a growing delay and answers 'deferred', and the caller lets the original message go (the
 * copy is sent first, so a worker dying in between leaves a duplicate, never a lost task: the
 * runner is idempotent). The slot is released however the run ends.
 */
export async function runWithTenantSlot<T>(message: TaskMessage, eventSourceArn: string, run: () => Promise<T>): Promise<T | 'deferred'> {
  const { taskConcurrency } = await effectiveLimits(message.tenant_id);
  if (!(await taskSlotRepository.acquire(message.tenant_id, message.task_id, taskConcurrency, Date.now(), LEASE_MS))) {
    const deferrals = message.deferrals ?? 0;
    await taskDispatcher.defer({ ...message, deferrals: deferrals + 1 }, eventSourceArn, deferDelaySeconds(limits().taskDeferSeconds, deferrals));
    return 'deferred';
  }
  try {
    return await run();
  } finally {
    // A release that fails leaves a lease that ends by itself (LEASE_MS); the run's outcome stands.
    await taskSlotRepository.release(message.tenant_id, message.task_id).catch((error: unknown) =>
      console.error(JSON.stringify({ level: 'WARN', message: 'task slot not released; its lease will end by itself', tenant_id: message.tenant_id, task_id: message.task_id, error: String(error) })),
    );
  }
}
