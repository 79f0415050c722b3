import { setTimeout as sleep } from 'node:timers/promises';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import type { ApprovalDecision } from '#shared/agents/agent';
import { systemClock } from '#shared/domain/clock';
import { ForbiddenError, NotFoundError } from '#shared/domain/errors';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import { validateAgainstSchema } from '#shared/domain/input-validation';
import type { Caller } from '#shared/domain/roles';
import type { Task } from '#shared/domain/task';
import { leaseExpiry } from '#shared/domain/task-lease';
import { isWaiting } from '#shared/domain/task-state';
import { limits } from '#shared/config/limits';
import { recordMetric } from '#shared/observability/metrics';
import { customTaskTypeOf } from '#shared/services/custom-manifests';
import { findDeployedAgent } from '#shared/services/agents';
import { effectiveLimits } from '#shared/services/tenant-limits';
import { releaseSlot, takeSlot, workerAgentOf } from '#shared/services/worker-leases';

/**
 * Claims (docs/workers.md): a worker asks for the next task of its agent, by priority then oldest
 * first, and gets it with a lease; with nothing to claim, the request waits up to `wait_seconds`
 * for a task to come. The queue is its agent's partition of the table (entities/task.ts), read
 * strongly consistent, so a task created a moment ago is seen at the next look.
 */

export interface Claim {
  task: Task;
  lease_id: string;
  lease_expires_at: string;
  /** Every decided approval of the task, in the order the worker asked for them. */
  decisions: ApprovalDecision[];
}

/** Queue entries one look reads: enough to step past a few that other workers win meanwhile. */
const HEAD_LENGTH = 10;
/**
 * When a waiting claim looks at its queue again: after `firstDelayMs`, each pause `growth` times
 * the last, at most `maxDelayMs` (a new task is seen within a second; the looks are most of what a
 * wait costs besides its Lambda time: docs/benchmarks.md prices it).
 */
export const LOOK_SCHEDULE = { firstDelayMs: 100, growth: 1.5, maxDelayMs: 1_000 } as const;
/** Looks in a row that lose every race before a claim counts the queue as empty for now (many workers, few tasks). */
const MAX_CONTENDED_LOOKS = 5;

/** The caller's agent, named by slug or agent id in the path: an agent of the tenant's that is not the key's is 403, none 404. */
async function claimingAgent(caller: Caller, agentReference: string): Promise<string> {
  const agent = workerAgentOf(caller);
  if (agentReference === agent) return agent;
  const named = await findDeployedAgent(caller.tenantId, agentReference);
  if (!named) throw new NotFoundError('agent', agentReference);
  if (named.agent_slug !== agent) throw new ForbiddenError(`This key works for agent '${agent}', not '${agentReference}'.`);
  return agent;
}

/** The next task of the caller's agent with a lease of `leaseSeconds`, waiting up to `waitSeconds`; undefined when none came. */
export async function claimTask(caller: Caller, agentReference: string, request: { wait_seconds: number; lease_seconds: number }): Promise<Claim | undefined> {
  const agent = await claimingAgent(caller, agentReference);
  const deadline = Date.now() + Math.min(request.wait_seconds, limits().claimWaitSeconds) * 1000;
  let contended = 0;
  for (let look = 0; ; look++) {
    const outcome = await claimNext(caller.tenantId, agent, request.lease_seconds);
    if (typeof outcome === 'object') {
      recordMetric('tasksClaimed', 1, { agent });
      return outcome;
    }
    // Lost every race of the head to other workers: tasks wait, so look again at once, even past the wait (a few times).
    if (outcome === 'contended' && ++contended <= MAX_CONTENDED_LOOKS) continue;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    // An empty queue (or the tenant at its cap): look again a little later each time.
    await sleep(Math.min(left, LOOK_SCHEDULE.firstDelayMs * LOOK_SCHEDULE.growth ** look, LOOK_SCHEDULE.maxDelayMs));
  }
}

/**
 * One look at the head of the queue. The first entry is tried first (one worker takes tasks in
 * exact order); after a lost race the next try jumps ahead a little at random, so many workers
 * spread over the head instead of all racing for each entry in turn.
 */
async function claimNext(tenantId: string, agent: string, leaseSeconds: number): Promise<Claim | 'empty' | 'contended' | 'at_cap'> {
  const head = await workerTaskRepository.queueHead(tenantId, agent, HEAD_LENGTH);
  if (head.length === 0) return 'empty';
  let index = 0;
  while (index < head.length) {
    const outcome = await claimOne(tenantId, head[index].task_id, leaseSeconds);
    if (outcome !== 'lost') return outcome;
    index += 1 + Math.floor(Math.random() * 3);
  }
  return 'contended';
}

/** Claims one waiting task, within the tenant's cap of running tasks; `lost` when another claim (or a cancel) came first. */
async function claimOne(tenantId: string, taskId: string, leaseSeconds: number): Promise<Claim | 'lost' | 'at_cap'> {
  const task = await taskRepository.load(tenantId, taskId);
  if (!task || !isWaiting(task.status)) return 'lost';
  if (await rejectedInput(task)) return 'lost';
  const now = systemClock.now();
  const lease = { lease_id: newId('lse', now.getTime()), lease_expires_at: leaseExpiry(now, leaseSeconds), lease_seconds: leaseSeconds };
  // The same cap as the runtime's dispatch (docs/limits.md): a slot per running task, its lease a little longer than the task's.
  const { taskConcurrency } = await effectiveLimits(tenantId);
  if (!(await takeSlot(tenantId, lease.lease_id, taskConcurrency, now.getTime(), Date.parse(lease.lease_expires_at)))) return 'at_cap';
  const events = task.started_at ? [] : [taskEvent('task.started', task, {}, systemClock)];
  if (!(await workerTaskRepository.claim(task, lease, now.toISOString(), events))) {
    await releaseSlot(tenantId, lease.lease_id);
    return 'lost';
  }
  const claimed: Task = { ...task, ...lease, status: 'running', claim_count: (task.claim_count ?? 0) + 1, started_at: task.started_at ?? now.toISOString(), updated_at: now.toISOString() };
  return { task: claimed, lease_id: lease.lease_id, lease_expires_at: lease.lease_expires_at, decisions: decisionsOf(claimed) };
}

/**
 * Input that breaks the task type's schema never reaches a worker: the task fails `malformed_input`.
 * Task creation does this at once; this catches a creation that died before it could.
 */
async function rejectedInput(task: Task): Promise<boolean> {
  const taskType = await customTaskTypeOf(task.tenant_id, task.agent, task.task_type);
  const violations = task.input_violations?.length ? task.input_violations : taskType ? validateAgainstSchema(taskType.input_schema, task.input, task.tenant_id) : [];
  if (violations.length === 0) return false;
  const error = { code: 'malformed_input', message: `The input does not match the ${task.task_type} input schema.`, details: violations };
  await workerTaskRepository.reject(task, error, taskEvent('task.failed', task, { error }, systemClock));
  return true;
}

/** The task's decided approvals in the order they were asked for (by the step that asked). */
export function decisionsOf(task: Pick<Task, 'decisions'>): ApprovalDecision[] {
  return Object.entries(task.decisions ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, decision]) => decision);
}
