import type { ServiceEvent } from '#shared/domain/event';

/** The stored event record as clients see it (docs/api.md, "Events and the stream"). */
export function renderEvent(event: ServiceEvent) {
  return {
    event_id: event.event_id,
    type: event.type,
    created_at: event.created_at,
    tenant_id: event.tenant_id,
    ...(event.task_id ? { task_id: event.task_id } : {}),
    ...(event.agent ? { agent: event.agent } : {}),
    ...(event.approval_id ? { approval_id: event.approval_id } : {}),
    ...(event.scan_id ? { scan_id: event.scan_id } : {}),
    data: event.data,
  };
}
