import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { followEvents, type StreamState } from '../../../api/event-stream';
import type { components } from '../../../api/schema';
import { timeOfEventId } from '../../../lib/event-time';
import { taskKeys } from './task-keys';

export type ServiceEvent = components['schemas']['EventList']['events'][number];

/** Pages of GET /events for one task, oldest first, are read to the end (bounded). */
const MAX_PAGES = 20;

async function loadTaskEvents(taskId: string): Promise<ServiceEvent[]> {
  const events: ServiceEvent[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = data(await api().GET('/events', { params: { query: { task_id: taskId, limit: 100, cursor } } }));
    events.push(...answer.events);
    if (!answer.next_cursor) break;
    cursor = answer.next_cursor;
  }
  return events;
}

/**
 * A task's timeline: its stored events, then every new one from the stream, kept in the query
 * cache. Each task event also refreshes the task and its artifacts.
 */
export function useTaskTimeline(taskId: string, live: boolean) {
  const client = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  const [streamError, setStreamError] = useState<unknown>();
  const events = useQuery({ queryKey: taskKeys.events(taskId), queryFn: () => loadTaskEvents(taskId), staleTime: Infinity });
  const loaded = events.isSuccess;

  useEffect(() => {
    if (!loaded || !live) return;
    const controller = new AbortController();
    const known = client.getQueryData<ServiceEvent[]>(taskKeys.events(taskId)) ?? [];
    void followEvents({
      query: { task_id: taskId },
      lastEventId: known.at(-1)?.event_id,
      signal: controller.signal,
      onState: setState,
      onEvent: (message) => {
        if (!message.id) return;
        const event = { event_id: message.id, type: message.event, created_at: timeOfEventId(message.id) ?? new Date().toISOString(), task_id: taskId, data: JSON.parse(message.data) } as ServiceEvent;
        client.setQueryData<ServiceEvent[]>(taskKeys.events(taskId), (current = []) => (current.some((item) => item.event_id === event.event_id) ? current : [...current, event]));
        void client.invalidateQueries({ queryKey: taskKeys.detail(taskId) });
      },
    }).catch(setStreamError);
    return () => controller.abort();
  }, [client, taskId, loaded, live]);

  return { events, state: live ? state : 'stopped', streamError };
}
