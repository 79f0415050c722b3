import type { Clock } from '#shared/domain/clock';
import type { EventType, ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import type { Principal } from '#shared/domain/roles';

/** The service itself acting (the tool proxy revoking refused credentials), for the audit log. */
export interface SystemActor {
  type: 'system';
  id: string;
}

/**
 * The event of an administrative change (a key created or revoked, a setting changed): written in
 * the same transaction as the change, with the principal who made it in `data.principal`.
 */
export function adminEvent(type: EventType, tenantId: string, principal: Principal | SystemActor, data: Record<string, unknown>, clock: Clock): ServiceEvent {
  const now = clock.now();
  return {
    event_id: newId('evt', now.getTime()),
    type,
    created_at: now.toISOString(),
    tenant_id: tenantId,
    data: { ...data, principal: { type: principal.type, id: principal.id } },
  };
}
