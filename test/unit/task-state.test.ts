import { describe, expect, it } from 'vitest';
import { ConflictError } from '#shared/domain/errors';
import { canTransition, initialStatus, nextStatus, TASK_STATUSES, type TaskShape, type TaskStatus, type TaskTrigger } from '#shared/domain/task-state';

const triggers: TaskTrigger[] = ['start', 'pause', 'resume', 'complete', 'fail', 'time_out', 'cancel'];

/** The whole table of allowed transitions, written out by hand from the spec. */
const allowed: Record<TaskShape, Partial<Record<TaskStatus, Partial<Record<TaskTrigger, TaskStatus>>>>> = {
  slug: {
    queued: { start: 'running', cancel: 'cancelled' },
    running: { pause: 'awaiting_approval', complete: 'complete', fail: 'failed', time_out: 'failed', cancel: 'cancelled' },
    awaiting_approval: { resume: 'running', fail: 'failed', cancel: 'cancelled' },
  },
  id: {
    pending: { start: 'running', cancel: 'cancelled' },
    running: { pause: 'awaiting_approval', complete: 'complete', fail: 'failed', time_out: 'failed', cancel: 'cancelled' },
    awaiting_approval: { resume: 'running', fail: 'failed', cancel: 'cancelled' },
  },
};

describe('task state machine', () => {
  it('starts slug-shaped tasks queued and identifier-shaped tasks pending', () => {
    expect(initialStatus('slug')).toBe('queued');
    expect(initialStatus('id')).toBe('pending');
  });

  for (const shape of ['slug', 'id'] as const) {
    for (const from of TASK_STATUSES) {
      for (const trigger of triggers) {
        const expected = allowed[shape][from]?.[trigger];
        if (expected) {
          it(`${shape}: ${from} --${trigger}--> ${expected}`, () => {
            expect(canTransition(shape, from, trigger)).toBe(true);
            expect(nextStatus(shape, from, trigger)).toBe(expected);
          });
        } else {
          it(`${shape}: ${from} --${trigger}--> forbidden`, () => {
            expect(canTransition(shape, from, trigger)).toBe(false);
            expect(() => nextStatus(shape, from, trigger)).toThrow(ConflictError);
          });
        }
      }
    }
  }

  it('names cancellation of an ended task as not cancellable', () => {
    expect(() => nextStatus('slug', 'complete', 'cancel')).toThrow(expect.objectContaining({ code: 'task_not_cancellable' }));
  });
});
