import { ConflictError } from '#shared/domain/errors';
import type { StepOutcome } from '#shared/domain/ports';

/**
 * The task state machine. A task keeps the shape it was created with for life: slug-shaped tasks
 * (created with `agent`) start `queued`, identifier-shaped tasks (created with `agent_id`) start
 * `pending`. Both words mean "waiting to be dispatched", so one machine serves both shapes.
 */
export type TaskShape = 'slug' | 'id';
export type TaskStatus = 'queued' | 'pending' | 'running' | 'awaiting_approval' | 'complete' | 'failed' | 'cancelled';
/**
 * `step`: an agent-context call applied while the task runs (it stays running; its step count
 * moves on). `time_out`: the stuck-work sweeper fails a task that ran past its deadline
 * (`agent_timeout`).
 */
export type TaskTrigger = 'start' | 'step' | 'pause' | 'resume' | 'complete' | 'fail' | 'time_out' | 'cancel';
/** Every write of a task: its creation, or a trigger of the machine. */
export type TaskWrite = 'create' | TaskTrigger;

export const TASK_STATUSES: readonly TaskStatus[] = ['queued', 'pending', 'running', 'awaiting_approval', 'complete', 'failed', 'cancelled'];
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['complete', 'failed', 'cancelled'];
export const TASK_TRIGGERS: readonly TaskTrigger[] = ['start', 'step', 'pause', 'resume', 'complete', 'fail', 'time_out', 'cancel'];

/** What one write does to a task's state. */
export interface TaskTransition {
  /** The states it may leave from; none for `create`, whose task does not exist yet. */
  from: readonly TaskStatus[];
  to: TaskStatus;
  /** Whether the task is dispatchable after it, which is what keeps it in the active-task index. */
  dispatchable: boolean;
}

export function initialStatus(shape: TaskShape): TaskStatus {
  return shape === 'slug' ? 'queued' : 'pending';
}

const waiting = (shape: TaskShape): TaskStatus => initialStatus(shape);

/** For each write: the states it may leave from, and the state it leads to. */
function rule(shape: TaskShape, write: TaskWrite): { from: TaskStatus[]; to: TaskStatus } {
  switch (write) {
    case 'create':
      return { from: [], to: waiting(shape) };
    case 'start':
      return { from: [waiting(shape)], to: 'running' };
    case 'step':
      return { from: ['running'], to: 'running' };
    case 'pause':
      return { from: ['running'], to: 'awaiting_approval' };
    case 'resume':
      return { from: ['awaiting_approval'], to: 'running' };
    case 'complete':
      return { from: ['running'], to: 'complete' };
    case 'fail':
      // A parked task can fail too: its approval may expire and the agent give up.
      return { from: ['running', 'awaiting_approval'], to: 'failed' };
    case 'time_out':
      // Only a running task has a deadline: a parked one waits for a human, and its approval's
      // expiry decides how long.
      return { from: ['running'], to: 'failed' };
    case 'cancel':
      return { from: [waiting(shape), 'running', 'awaiting_approval'], to: 'cancelled' };
  }
}

/** The one description of a write that repositories derive their conditions and index keys from. */
export function transitionOf(shape: TaskShape, write: TaskWrite): TaskTransition {
  const { from, to } = rule(shape, write);
  return { from, to, dispatchable: isDispatchable(to) };
}

export function canTransition(shape: TaskShape, from: TaskStatus, trigger: TaskTrigger): boolean {
  return rule(shape, trigger).from.includes(from);
}

/** The state a trigger leads to from `from`, or a ConflictError naming why it cannot happen. */
export function nextStatus(shape: TaskShape, from: TaskStatus, trigger: TaskTrigger): TaskStatus {
  if (!canTransition(shape, from, trigger)) throw transitionConflict(from, trigger);
  return rule(shape, trigger).to;
}

export function transitionConflict(from: TaskStatus, trigger: TaskTrigger): ConflictError {
  if (trigger === 'cancel') {
    return new ConflictError('task_not_cancellable', `The task is ${from} and can no longer be cancelled.`);
  }
  return new ConflictError('invalid_task_transition', `A ${from} task cannot ${trigger}.`);
}

/**
 * Why the write of agent-context call `step` (a `step` or a `pause`) was refused, judged from the
 * task as stored now. It was applied before (a replay) when the task reached that call and is
 * still where the write left it: running after a step; parked, or resumed already, after a pause.
 * Anything else means the task left the run (it ended, or parked while this worker went on).
 */
export function refusedStepOutcome(shape: TaskShape, trigger: 'step' | 'pause', step: number, current: { status: TaskStatus; step: number } | undefined): StepOutcome {
  const after = trigger === 'pause' ? [rule(shape, 'pause').to, rule(shape, 'resume').to] : [rule(shape, 'step').to];
  return current && current.step >= step && after.includes(current.status) ? 'already_applied' : 'task_not_running';
}

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** Waiting or running tasks: the ones a dispatcher must (re)deliver until they end. */
export function isDispatchable(status: TaskStatus): boolean {
  return status === 'queued' || status === 'pending' || status === 'running';
}
