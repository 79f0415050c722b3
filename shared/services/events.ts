import { eventRepository, type EventQuery } from '#shared/adapters/dynamodb/event-repository';
import { canonicalAgentFilter } from '#shared/agents/directory';
import type { ServiceEvent } from '#shared/domain/event';

/** One page of the tenant's event log, oldest first within the window; an agent alias filters as its slug. */
export function listEvents(tenantId: string, query: EventQuery): Promise<{ events: ServiceEvent[]; nextCursor: string | null }> {
  return eventRepository.list(tenantId, { ...query, agent: query.agent ? canonicalAgentFilter(query.agent) : undefined });
}
