import type { Approval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import type { EventType, ServiceEvent } from '#shared/domain/event';
import { eventAbout } from '#shared/domain/events';

/**
 * The event of one approval's step. Its own module, free of adapters, because the approval gate
 * (task worker), the resolution paths and the tool proxy all write these events and must not pull
 * each other's clients (scheduler, mailer) into their bundles.
 */
export function approvalEvent(type: EventType, approval: Approval, data: Record<string, unknown>): ServiceEvent {
  const subject = { tenant_id: approval.tenant_id, task_id: approval.task_id, agent: approval.agent, approval_id: approval.approval_id };
  return eventAbout(type, subject, { approval_id: approval.approval_id, task_id: approval.task_id, ...data }, systemClock);
}
