import { ConflictError } from '#shared/domain/errors';

/**
 * The task state machine. A task keeps the shape it was created with for life: slug-shaped tasks
 * (created with `agent`) start `queued`, identifier-shaped tasks (created with `agent_id`) start
 * `pending`. Both words mean "waiting to be dispatched", so one machine serves both shapes.
 */
export type TaskShape = 'slug' | 'id';
export type TaskStatus = 'queued' | 'pending' | 'running' | 'awaiting_approval' | 'complete' | 'failed' | 'cancelled';
/** `time_out`: the stuck-work sweeper fails a task that ran past its deadline (`agent_timeout`). */
export type TaskTrigger = 'start' | 'pause' | 'resume' | 'complete' | 'fail' | 'time_out' | 'cancel';

export const TASK_STATUSES: readonly TaskStatus[] = ['queued', 'pending', 'running', 'awaiting_approval', 'complete', 'failed', 'cancelled'];
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['complete', 'failed', 'cancelled'];

export function initialStatus(shape: TaskShape): TaskStatus {
  return shape === 'slug' ? 'queued' : 'pending';
}

const waiting = (shape: TaskShape): TaskStatus => initialStatus(shape);

/** For each trigger: the states it may leave from, and the state it leads to. */
function rule(shape: TaskShape, trigger: TaskTrigger): { from: TaskStatus[]; to: TaskStatus } {
  switch (trigger) {
    case 'start':
      return { from: [waiting(shape)], to: 'running' };
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

/** The states a trigger may leave from; repositories put these in their write conditions. */
export function sourceStatuses(shape: TaskShape, trigger: TaskTrigger): TaskStatus[] {
  return rule(shape, trigger).from;
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

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** Waiting or running tasks: the ones a dispatcher must (re)deliver until they end. */
export function isDispatchable(status: TaskStatus): boolean {
  return status === 'queued' || status === 'pending' || status === 'running';
}
