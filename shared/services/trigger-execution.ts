import { fanOutBudgetRepository } from '#shared/adapters/dynamodb/fan-out-budget-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { runWrites, triggerRepository, type TriggerAdvance } from '#shared/adapters/dynamodb/trigger-repository';
import type { TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { systemClock, type Clock } from '#shared/domain/clock';
import { ConflictError, DomainError } from '#shared/domain/errors';
import type { ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import type { Task, TaskSource } from '#shared/domain/task';
import { isTerminal } from '#shared/domain/task-state';
import { mappedInput, type Trigger, type TriggerRun } from '#shared/domain/trigger';
import { logger } from '#shared/observability/logger';
import { createTask, TaskNotCreated } from '#shared/services/task-creation';

/** How deep in a chain of event triggers a task is: 0 unless an event trigger started it. */
export function triggerDepth(task: Pick<Task, 'trigger'>): number {
  const depth = task.trigger?.type === 'event' ? Number(task.trigger.depth) : 0;
  return Number.isFinite(depth) ? depth : 0;
}

/**
 * The task a chain of event triggers started from: the root an event-triggered task carries
 * (`trigger.root_task_id`), else the task itself (it was not started by an event trigger, or
 * before tasks carried their root).
 */
export function rootTaskOf(task: Pick<Task, 'task_id' | 'trigger'>): string {
  const root = task.trigger?.type === 'event' ? task.trigger.root_task_id : undefined;
  return typeof root === 'string' && root !== '' ? root : task.task_id;
}

export interface PlannedRun {
  run_id: string;
  at: string;
  scheduled_for?: string;
  source: TaskSource;
  /** What `input_mapping` points into. */
  context: unknown;
  /** What the run moves forward on the trigger besides its task. */
  advance: TriggerAdvance;
  /** Schedule triggers (and fires "as a schedule would") keep the overlap rule. */
  overlap: boolean;
  cause?: Pick<TriggerRun, 'source_artifact_id' | 'source_task_id'>;
  /** Written with the run's task, all or nothing (a mail's attachments). */
  writes?: TransactItem[];
  /** An event trigger's run spends one task of its root's fan-out budget, in the task's transaction. */
  fanOut?: { root_task_id: string; budget: number };
}

/** Whether the trigger's latest task still holds its place (queued, running or awaiting approval). */
async function stillRunning(trigger: Trigger): Promise<string | undefined> {
  if (!trigger.last_task_id) return undefined;
  const last = await taskRepository.load(trigger.tenant_id, trigger.last_task_id);
  return last && !isTerminal(last.status) ? last.task_id : undefined;
}

/**
 * One run: its task, created in one transaction with the run's record (whose id is its claim)
 * and the trigger's advance, or the record of why no task started. A second handling of the same
 * run (the scheduler fired twice, the stream redelivered, the process died after the write)
 * finds its record and changes nothing. Returns the run as recorded.
 */
export async function execute(trigger: Trigger, plan: PlannedRun): Promise<TriggerRun> {
  const base = { run_id: plan.run_id, trigger_id: trigger.trigger_id, at: plan.at, ...(plan.scheduled_for ? { scheduled_for: plan.scheduled_for } : {}), ...(plan.cause ?? {}) };
  const existing = await triggerRepository.getRun(trigger.tenant_id, trigger.trigger_id, plan.run_id);
  if (existing) return existing;
  const record = async (run: TriggerRun): Promise<TriggerRun> => {
    const written = await triggerRepository.recordRun(trigger.tenant_id, run, plan.advance);
    return written ? run : ((await triggerRepository.getRun(trigger.tenant_id, trigger.trigger_id, plan.run_id)) ?? run);
  };
  if (plan.overlap && trigger.source.type === 'schedule' && trigger.source.overlap === 'skip') {
    const running = await stillRunning(trigger);
    if (running) return record({ ...base, outcome: 'skipped_overlap', reason: `task ${running} of this trigger has not ended yet` });
  }
  // Spent already: no creation to try (the creation's own condition holds the budget under races).
  if (plan.fanOut && (await fanOutBudgetRepository.spent(trigger.tenant_id, plan.fanOut.root_task_id)) >= plan.fanOut.budget) return record(budgetSpent(base, plan.fanOut));
  let created: TriggerRun | undefined;
  try {
    await createTask(trigger.tenant_id, {
      shape: 'slug',
      agentReference: trigger.task.agent,
      task_type: trigger.task.task_type,
      input: mappedInput(trigger.task, plan.context),
      priority: trigger.task.priority,
      trigger: plan.source,
      with: (task) => {
        created = { ...base, outcome: 'task_created', task_id: task.task_id };
        const spend = plan.fanOut ? [fanOutBudgetRepository.spendWrite(trigger.tenant_id, plan.fanOut.root_task_id, plan.fanOut.budget, new Date(plan.at))] : [];
        return { items: [...runWrites(trigger.tenant_id, created, { ...plan.advance, last_task_id: task.task_id }), ...(plan.writes ?? []), ...spend], events: [] as ServiceEvent[] };
      },
    });
    return created!;
  } catch (error) {
    if (error instanceof TaskNotCreated) {
      // The run was claimed meanwhile (a concurrent handling), or the trigger is gone.
      const claimed = await triggerRepository.getRun(trigger.tenant_id, trigger.trigger_id, plan.run_id);
      if (claimed) return claimed;
      if (plan.fanOut && (await fanOutBudgetRepository.spent(trigger.tenant_id, plan.fanOut.root_task_id)) >= plan.fanOut.budget) return record(budgetSpent(base, plan.fanOut));
      logger.info('trigger run wrote nothing: the trigger no longer exists', { trigger_id: trigger.trigger_id, run_id: plan.run_id });
      return { ...base, outcome: 'failed', reason: 'the trigger no longer exists' };
    }
    // The agent was undeployed, or its task type is gone: the run failed, and says why.
    if (error instanceof DomainError && error.kind === 'invalid') return record({ ...base, outcome: 'failed', reason: error.message });
    throw error;
  }
}

/** The run an exhausted fan-out budget stops (logged, like the other skipped runs). */
function budgetSpent(base: Omit<TriggerRun, 'outcome'>, fanOut: NonNullable<PlannedRun['fanOut']>): TriggerRun {
  logger.info('event trigger skipped: fan-out budget spent', { trigger_id: base.trigger_id, root_task_id: fanOut.root_task_id, budget: fanOut.budget });
  return { ...base, outcome: 'skipped_budget', reason: `event triggers already started ${fanOut.budget} tasks from task ${fanOut.root_task_id}; a chain starts at most ${fanOut.budget} (GATEHOUSE_EVENT_TRIGGER_FAN_OUT)` };
}

/** POST /triggers/{id}/fire: one run now, as the schedule would make it (the overlap rule holds). */
export async function fireNow(trigger: Trigger, clock: Clock = systemClock): Promise<TriggerRun> {
  if (trigger.source.type === 'mail' || trigger.source.type === 'chat') {
    throw new ConflictError('trigger_not_fireable', `A ${trigger.source.type} trigger runs for each ${trigger.source.type === 'mail' ? 'mail sent to its address' : 'matching message in its channel'}; it cannot be fired by hand.`);
  }
  const now = clock.now();
  const runId = newId('run', now.getTime());
  const source: TaskSource = { type: trigger.source.type, trigger_id: trigger.trigger_id, run_id: runId, manual: true };
  return execute(trigger, { run_id: runId, at: now.toISOString(), source, context: {}, advance: {}, overlap: true });
}

