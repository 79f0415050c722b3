import { describe, expect, it } from 'vitest';
import { BACKSTOP_SECONDS, FAN_OUT_GRACE_SECONDS, orderingDecision, predecessorOf, RECHECK_SECONDS, STALLED_DELIVERY_SECONDS, type EarlierEvent } from '#shared/domain/webhook-ordering';

const now = new Date('2025-06-01T12:00:00.000Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
const webhookCreatedAt = ago(10_000);

function event(id: string, createdSecondsAgo: number, delivery?: EarlierEvent['delivery']): EarlierEvent {
  return { event_id: id, created_at: ago(createdSecondsAgo), ...(delivery ? { delivery } : {}) };
}

describe('per-(webhook, task) delivery order', () => {
  it('lets the first event of a task go at once', () => {
    expect(orderingDecision([], webhookCreatedAt, now)).toEqual({ action: 'deliver' });
  });

  it('lets an event go once every earlier one ended, whether delivered, failed or skipped', () => {
    const earlier = [
      event('evt_1', 30, { status: 'succeeded', attempt_count: 1, created_at: ago(30) }),
      event('evt_2', 20, { status: 'failed', attempt_count: 125, created_at: ago(20) }),
      event('evt_3', 10, { status: 'skipped', attempt_count: 0, created_at: ago(10) }),
    ];

    expect(orderingDecision(earlier, webhookCreatedAt, now)).toEqual({ action: 'deliver' });
  });

  it('holds an event back while an earlier one is retrying, until that one is due', () => {
    const earlier = [event('evt_1', 60, { status: 'retrying', attempt_count: 2, created_at: ago(60), next_attempt_at: new Date(now.getTime() + 45_000).toISOString() })];

    expect(orderingDecision(earlier, webhookCreatedAt, now)).toEqual({ action: 'wait', blockedBy: 'evt_1', delaySeconds: 45 + RECHECK_SECONDS });
  });

  it('waits on the earliest undelivered event, whatever order the records come in', () => {
    const earlier = [
      event('evt_3', 5, { status: 'pending', attempt_count: 0, created_at: ago(5) }),
      event('evt_1', 30, { status: 'succeeded', attempt_count: 1, created_at: ago(30) }),
      event('evt_2', 20, { status: 'retrying', attempt_count: 1, created_at: ago(20), next_attempt_at: ago(-10) }),
    ];

    expect(orderingDecision(earlier, webhookCreatedAt, now)).toMatchObject({ action: 'wait', blockedBy: 'evt_2' });
  });

  it('waits for an earlier event whose fan-out has not happened yet, but not beyond the grace', () => {
    expect(orderingDecision([event('evt_1', 2)], webhookCreatedAt, now)).toEqual({ action: 'wait', blockedBy: 'evt_1', delaySeconds: BACKSTOP_SECONDS });
    expect(orderingDecision([event('evt_1', FAN_OUT_GRACE_SECONDS + 1)], webhookCreatedAt, now)).toEqual({ action: 'deliver' });
  });

  it('never waits for an event older than the subscription, which it will never get', () => {
    expect(orderingDecision([event('evt_1', 20)], ago(10), now)).toEqual({ action: 'deliver' });
  });

  it('re-sends the next attempt of a blocker that is long overdue (its message was probably lost)', () => {
    const overdue = event('evt_1', 600, { status: 'retrying', attempt_count: 3, created_at: ago(600), next_attempt_at: ago(STALLED_DELIVERY_SECONDS + 5) });
    const merelyLate = event('evt_1', 600, { status: 'pending', attempt_count: 0, created_at: ago(STALLED_DELIVERY_SECONDS - 5) });

    expect(orderingDecision([overdue], webhookCreatedAt, now)).toEqual({ action: 'wait', blockedBy: 'evt_1', delaySeconds: RECHECK_SECONDS, kickBlocker: { attempt: 4 } });
    expect(orderingDecision([merelyLate], webhookCreatedAt, now)).not.toHaveProperty('kickBlocker');
  });

  it('looks again only as a backstop while the blocker is in line, since its end releases the waiting one', () => {
    const inLine = event('evt_1', 3, { status: 'pending', attempt_count: 0, created_at: ago(3) });

    expect(orderingDecision([inLine], webhookCreatedAt, now)).toEqual({ action: 'wait', blockedBy: 'evt_1', delaySeconds: BACKSTOP_SECONDS });
  });

  it('never asks SQS for a delay beyond 900 s', () => {
    const farOff = event('evt_1', 60, { status: 'retrying', attempt_count: 9, created_at: ago(60), next_attempt_at: new Date(now.getTime() + 3_600_000).toISOString() });

    expect(orderingDecision([farOff], webhookCreatedAt, now)).toMatchObject({ delaySeconds: 900 });
  });
});

describe("a delivery's predecessor, named at fan-out", () => {
  const webhook = { events: ['task.started', 'task.complete'] as const, created_at: ago(100) };
  const log = [
    { event_id: 'evt_1', type: 'task.created', created_at: ago(90) },
    { event_id: 'evt_2', type: 'task.started', created_at: ago(80) },
    { event_id: 'evt_3', type: 'task.progress', created_at: ago(70) },
    { event_id: 'evt_4', type: 'task.complete', created_at: ago(60) },
  ];

  it('is the latest earlier event of the task that the subscription takes, whatever order the log comes in', () => {
    expect(predecessorOf({ event_id: 'evt_4' }, [...log].reverse(), { ...webhook, events: [...webhook.events] })).toBe('evt_2');
  });

  it('is null for the first such event, and skips events older than the subscription', () => {
    expect(predecessorOf({ event_id: 'evt_2' }, log, { ...webhook, events: [...webhook.events] })).toBeNull();
    expect(predecessorOf({ event_id: 'evt_4' }, log, { events: [...webhook.events], created_at: ago(75) })).toBeNull();
  });
});
