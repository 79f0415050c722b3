import { useEffect, useState } from 'react';
import { api, data } from '../../../api/client';
import { followEvents, type StreamState } from '../../../api/event-stream';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';
import { timeOfEventId } from '../../../lib/event-time';

export type ServiceEvent = components['schemas']['Event'];

export interface EventsQuery {
  type?: string;
  task_id?: string;
  agent?: string;
  after?: string;
  before?: string;
}

/** GET /events with these filters, oldest first, a page at a time. */
export function useEvents(query: EventsQuery) {
  return usePagedList(['events', 'list', query], async (cursor) => {
    const page = data(await api().GET('/events', { params: { query: { ...query, cursor, limit: 50 } } }));
    return { items: page.events, next_cursor: page.next_cursor };
  });
}

/**
 * New events from the stream while `enabled`, with the list's filters (no time range: a tail
 * starts now, or right after `resumeAfter`, the last event already shown, so none is missed).
 */
export function useEventTail(query: EventsQuery, enabled: boolean, resumeAfter: string | undefined) {
  const [events, setEvents] = useState<ServiceEvent[]>([]);
  const [state, setState] = useState<StreamState>('stopped');
  const [error, setError] = useState<unknown>();
  const { type, task_id, agent } = query;

  useEffect(() => {
    setEvents([]);
    setError(undefined);
    if (!enabled) return setState('stopped');
    const controller = new AbortController();
    const filters = Object.fromEntries(Object.entries({ types: type, task_id, agent }).filter(([, value]) => value));
    void followEvents({
      query: filters,
      lastEventId: resumeAfter,
      signal: controller.signal,
      onState: setState,
      onEvent: (message) => {
        if (!message.id) return;
        const parsed = JSON.parse(message.data) as Record<string, unknown>;
        const event: ServiceEvent = { event_id: message.id, type: message.event, created_at: timeOfEventId(message.id) ?? new Date().toISOString(), tenant_id: '', data: parsed };
        setEvents((current) => (current.some((item) => item.event_id === event.event_id) ? current : [...current, event]));
      },
    }).catch(setError);
    return () => controller.abort();
    // The tail restarts when the filters change, not when more of the list loads.
  }, [enabled, type, task_id, agent]);

  return { events, state, error };
}
