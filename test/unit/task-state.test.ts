import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '#shared/domain/errors';
import {
  canTransition,
  initialStatus,
  isDispatchable,
  nextStatus,
  refusedStepOutcome,
  TASK_STATUSES,
  TASK_TRIGGERS,
  transitionOf,
  type TaskShape,
  type TaskStatus,
  type TaskTrigger,
} from '#shared/domain/task-state';

/** The whole table of allowed transitions, written out by hand from the documented task lifecycle (docs/api.md), not derived from the code under test. */
const allowed: Record<TaskShape, Partial<Record<TaskStatus, Partial<Record<TaskTrigger, TaskStatus>>>>> = {
  slug: {
    queued: { start: 'running', cancel: 'cancelled' },
    running: { step: 'running', pause: 'awaiting_approval', complete: 'complete', fail: 'failed', time_out: 'failed', cancel: 'cancelled' },
    awaiting_approval: { resume: 'running', fail: 'failed', cancel: 'cancelled' },
  },
  id: {
    pending: { start: 'running', cancel: 'cancelled' },
    running: { step: 'running', pause: 'awaiting_approval', complete: 'complete', fail: 'failed', time_out: 'failed', cancel: 'cancelled' },
    awaiting_approval: { resume: 'running', fail: 'failed', cancel: 'cancelled' },
  },
};

const shapes = fc.constantFrom<TaskShape>('slug', 'id');
const statuses = fc.constantFrom(...TASK_STATUSES);
const triggers = fc.constantFrom(...TASK_TRIGGERS);

describe('task state machine', () => {
  it('starts slug-shaped tasks queued and identifier-shaped tasks pending, in the active-task index', () => {
    expect(initialStatus('slug')).toBe('queued');
    expect(initialStatus('id')).toBe('pending');
    expect(transitionOf('slug', 'create')).toEqual({ from: [], to: 'queued', dispatchable: true });
    expect(transitionOf('id', 'create')).toEqual({ from: [], to: 'pending', dispatchable: true });
  });

  for (const shape of ['slug', 'id'] as const) {
    for (const from of TASK_STATUSES) {
      for (const trigger of TASK_TRIGGERS) {
        const expected = allowed[shape][from]?.[trigger];
        if (expected) {
          it(`${shape}: ${from} --${trigger}--> ${expected}`, () => {
            expect(canTransition(shape, from, trigger)).toBe(true);
            expect(nextStatus(shape, from, trigger)).toBe(expected);
            expect(transitionOf(shape, trigger).from).toContain(from);
          });
        } else {
          it(`${shape}: ${from} --${trigger}--> forbidden`, () => {
            expect(canTransition(shape, from, trigger)).toBe(false);
            expect(() => nextStatus(shape, from, trigger)).toThrow(ConflictError);
            expect(transitionOf(shape, trigger).from).not.toContain(from);
          });
        }
      }
    }
  }

  it('keeps the task in the active-task index exactly while it waits or runs', () => {
    const indexed: Record<TaskStatus, boolean> = { queued: true, pending: true, running: true, awaiting_approval: false, complete: false, failed: false, cancelled: false };
    for (const status of TASK_STATUSES) expect(isDispatchable(status)).toBe(indexed[status]);
    expect(transitionOf('slug', 'pause').dispatchable).toBe(false);
    expect(transitionOf('slug', 'resume').dispatchable).toBe(true);
    expect(transitionOf('id', 'step').dispatchable).toBe(true);
    expect(transitionOf('id', 'cancel').dispatchable).toBe(false);
  });

  it('agrees with itself: a trigger is allowed from exactly its source states, leads to its target, and the target decides the index', () => {
    fc.assert(
      fc.property(shapes, statuses, triggers, (shape, from, trigger) => {
        const transition = transitionOf(shape, trigger);
        expect(canTransition(shape, from, trigger)).toBe(transition.from.includes(from));
        expect(transition.dispatchable).toBe(isDispatchable(transition.to));
        if (canTransition(shape, from, trigger)) expect(nextStatus(shape, from, trigger)).toBe(transition.to);
        else expect(() => nextStatus(shape, from, trigger)).toThrow(ConflictError);
      }),
    );
  });

  it('never leaves an ended task, and never makes a task waiting again', () => {
    fc.assert(
      fc.property(shapes, triggers, (shape, trigger) => {
        const { from, to } = transitionOf(shape, trigger);
        expect(from.filter((status) => ['complete', 'failed', 'cancelled'].includes(status))).toEqual([]);
        // `release` leads back to waiting, and applies to no task of the runtime (only to a worker's).
        if (from.length > 0) expect(to).not.toBe(initialStatus(shape));
      }),
    );
  });

  it('names cancellation of an ended task as not cancellable, and other refusals as invalid transitions', () => {
    expect(() => nextStatus('slug', 'complete', 'cancel')).toThrow(expect.objectContaining({ code: 'task_not_cancellable' }));
    expect(() => nextStatus('id', 'awaiting_approval', 'step')).toThrow(expect.objectContaining({ code: 'invalid_task_transition' }));
  });
});

describe("a custom agent's task (runs on workers)", () => {
  /** What differs from the runtime's table above: a decided task and a lost lease wait for a claim again; bad input fails before any claim. */
  const workerOnly: Record<TaskShape, Partial<Record<TaskStatus, Partial<Record<TaskTrigger, TaskStatus>>>>> = {
    slug: { queued: { reject: 'failed' }, running: { release: 'queued' }, awaiting_approval: { resume: 'queued' } },
    id: { pending: { reject: 'failed' }, running: { release: 'pending' }, awaiting_approval: { resume: 'pending' } },
  };

  it('follows the runtime table but for going back to wait (lost lease, decision) and rejecting bad input', () => {
    for (const shape of ['slug', 'id'] as const) {
      for (const from of TASK_STATUSES) {
        for (const trigger of TASK_TRIGGERS) {
          const expected = trigger in (workerOnly[shape][from] ?? {}) ? workerOnly[shape][from]![trigger] : trigger === 'resume' || trigger === 'release' || trigger === 'reject' ? undefined : allowed[shape][from]?.[trigger];
          expect({ shape, from, trigger, allowed: canTransition(shape, from, trigger, 'worker') }).toEqual({ shape, from, trigger, allowed: expected !== undefined });
          if (expected) expect(nextStatus(shape, from, trigger, 'worker')).toBe(expected);
        }
      }
    }
  });

  it('never leaves an ended task', () => {
    for (const trigger of TASK_TRIGGERS) expect(transitionOf('slug', trigger, 'worker').from.filter((status) => ['complete', 'failed', 'cancelled'].includes(status))).toEqual([]);
  });
});

describe('a refused agent-context write', () => {
  it('is a replay when the task reached the call and is still where the write left it', () => {
    expect(refusedStepOutcome('slug', 'step', 3, { status: 'running', step: 3 })).toBe('already_applied');
    expect(refusedStepOutcome('slug', 'step', 3, { status: 'running', step: 5 })).toBe('already_applied');
    expect(refusedStepOutcome('id', 'pause', 3, { status: 'awaiting_approval', step: 3 })).toBe('already_applied');
    // Resumed since: the pause was applied and the human has answered.
    expect(refusedStepOutcome('id', 'pause', 3, { status: 'running', step: 3 })).toBe('already_applied');
  });

  it('tells the worker to stop otherwise: the task is gone, behind the call, parked or ended', () => {
    expect(refusedStepOutcome('slug', 'step', 3, undefined)).toBe('task_not_running');
    expect(refusedStepOutcome('slug', 'step', 3, { status: 'running', step: 2 })).toBe('task_not_running');
    expect(refusedStepOutcome('slug', 'step', 3, { status: 'awaiting_approval', step: 3 })).toBe('task_not_running');
    expect(refusedStepOutcome('slug', 'pause', 3, { status: 'running', step: 2 })).toBe('task_not_running');
    fc.assert(
      fc.property(shapes, fc.constantFrom<'step' | 'pause'>('step', 'pause'), fc.constantFrom<TaskStatus>('complete', 'failed', 'cancelled'), fc.nat(9), (shape, trigger, status, reached) => {
        expect(refusedStepOutcome(shape, trigger, 3, { status, step: reached })).toBe('task_not_running');
      }),
    );
  });
});
