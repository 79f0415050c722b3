/** Event types the service records (docs/api.md lists each with its data). */
export const EVENT_TYPES = [
  'task.created',
  'task.started',
  'task.progress',
  'task.complete',
  'task.failed',
  'task.cancelled',
  // A custom agent's task back in its queue: its worker's lease ran out, or the worker gave it back.
  'task.requeued',
  'artifact.emitted',
  'approval.requested',
  'approval.resolved',
  'session.message',
  'session.closed',
  'tool_call.executed',
  // A scan's life: a CI pipeline learns that its scan ended from the stream or a webhook.
  'scan.created',
  'scan.started',
  'scan.completed',
  'scan.failed',
  'scan.cancelled',
  // Administrative changes, each with `data.principal`: the tenant's audit log.
  'api_key.created',
  'api_key.revoked',
  // A key bound to a person who was demoted: its role lowered to what the person may still do.
  'api_key.role_capped',
  'member.added',
  'member.role_changed',
  'member.removed',
  // A person invited answers: joined (accepted) or declined; `data.principal` is the person.
  'member.joined',
  'member.declined',
  'settings.retention_changed',
  'integration.revoked',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An immutable record of one state change, written in the same transaction as the change. */
export interface ServiceEvent {
  event_id: string;
  type: EventType;
  created_at: string;
  tenant_id: string;
  task_id?: string;
  agent?: string;
  approval_id?: string;
  scan_id?: string;
  data: Record<string, unknown>;
}
