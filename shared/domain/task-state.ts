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
 * Who runs a task: the built-in runtime, or (`worker`) the workers of a custom agent, which claim
 * it through the worker protocol (docs/workers.md). Absent on the task: the runtime.
 */
export type TaskRunner = 'runtime' | 'worker';

/**
 * `step`: an agent-context call applied while the task runs (it stays running; its step count
 * moves on). `time_out`: the stuck-work sweeper fails a task that ran past its deadline, or whose
 * worker lost its lease too often (`agent_timeout`). `release`: a worker's task goes back to the
 * queue (its lease ran out, or the worker gave it back). `reject`: a task fails before anything
 * ran it (a custom agent's input that breaks its schema).
 */
export type TaskTrigger = 'start' | 'step' | 'pause' | 'resume' | 'release' | 'complete' | 'fail' | 'reject' | 'time_out' | 'cancel';
/** Every write of a task: its creation, or a trigger of the machine. */
export type TaskWrite = 'create' | TaskTrigger;

export const TASK_STATUSES: readonly TaskStatus[] = ['queued', 'pending', 'running', 'awaiting_approval', 'complete', 'failed', 'cancelled'];
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['complete', 'failed', 'cancelled'];
export const TASK_TRIGGERS: readonly TaskTrigger[] = ['start', 'step', 'pause', 'resume', 'release', 'complete', 'fail', 'reject', 'time_out', 'cancel'];

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
function rule(shape: TaskShape, write: TaskWrite, runner: TaskRunner): { from: TaskStatus[]; to: TaskStatus } {
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
      // The runtime runs a decided task on at once; a worker's task waits for a worker to claim it again.
      return { from: ['awaiting_approval'], to: runner === 'worker' ? waiting(shape) : 'running' };
    case 'release':
      // Only a worker's task goes back: the runtime's redelivers its message instead.
      return { from: runner === 'worker' ? ['running'] : [], to: waiting(shape) };
    case 'complete':
      return { from: ['running'], to: 'complete' };
    case 'fail':
      // A parked task can fail too: its approval may expire and the agent give up.
      return { from: ['running', 'awaiting_approval'], to: 'failed' };
    case 'reject':
      // The runtime's tasks fail bad input when they run (agent-runner.ts).
      return { from: runner === 'worker' ? [waiting(shape)] : [], to: 'failed' };
    case 'time_out':
      // Only a running task has a deadline: a parked one waits for a human, and its approval's
      // expiry decides how long.
      return { from: ['running'], to: 'failed' };
    case 'cancel':
      return { from: [waiting(shape), 'running', 'awaiting_approval'], to: 'cancelled' };
  }
}

/** The one description of a write that repositories derive their conditions and index keys from. */
export function transitionOf(shape: TaskShape, write: TaskWrite, runner: TaskRunner = 'runtime'): TaskTransition {
  const { from, to } = rule(shape, write, runner);
  return { from, to, dispatchable: isDispatchable(to) };
}

export function canTransition(shape: TaskShape, from: TaskStatus, trigger: TaskTrigger, runner: TaskRunner = 'runtime'): boolean {
  return rule(shape, trigger, runner).from.includes(from);
}

/** The state a trigger leads to from `from`, or a ConflictError naming why it cannot happen. */
export function nextStatus(shape: TaskShape, from: TaskStatus, trigger: TaskTrigger, runner: TaskRunner = 'runtime'): TaskStatus {
  if (!canTransition(shape, from, trigger, runner)) throw transitionConflict(from, trigger);
  return rule(shape, trigger, runner).to;
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
  const after = trigger === 'pause' ? [rule(shape, 'pause', 'runtime').to, rule(shape, 'resume', 'runtime').to] : [rule(shape, 'step', 'runtime').to];
  return current && current.step >= step && after.includes(current.status) ? 'already_applied' : 'task_not_running';
}

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** Whether the status is the shape's "waiting for a worker or the runtime" (`queued` or `pending`). */
export function isWaiting(status: TaskStatus): boolean {
  return status === 'queued' || status === 'pending';
}

/** Waiting or running tasks: the ones a dispatcher must (re)deliver until they end. */
export function isDispatchable(status: TaskStatus): boolean {
  return status === 'queued' || status === 'pending' || status === 'running';
}
