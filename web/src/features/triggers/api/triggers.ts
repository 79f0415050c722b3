import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components, operations } from '../../../api/schema';
import { integrationKeys, type Integration } from '../../integrations/api/integrations';

export type Trigger = components['schemas']['Trigger'];
export type TriggerRun = components['schemas']['TriggerRun'];
export type NewTrigger = operations['postTriggers']['requestBody']['content']['application/json'];
export type TriggerKind = Trigger['source']['type'];

/** The kinds, in the order the filter and the form offer them. */
export const TRIGGER_KINDS: TriggerKind[] = ['schedule', 'event', 'mail', 'chat'];

/** Each kind's name in words. */
export const TRIGGER_KIND_LABELS: Record<TriggerKind, string> = { schedule: 'Schedule', event: 'Event', mail: 'Mail', chat: 'Chat' };

/** A schedule's source as the API shows it (the schema keeps `source` open). */
export interface ScheduleSource {
  type: 'schedule';
  cron: string;
  timezone: string;
  overlap?: 'skip' | 'allow';
  start_at?: string;
  end_at?: string;
}

/** An event trigger's source. */
export interface EventSource {
  type: 'event';
  artifact_type: string;
  agent?: string;
}

/** A mail trigger's source: its own inbound address, and what a mail must match to start a task. */
export interface MailSource {
  type: 'mail';
  address: string;
  integration_id?: string;
  match?: { from?: string; subject?: string };
}

/** A chat trigger's source: a channel of a slack integration, and the pattern a message must match. */
export interface ChatSource {
  type: 'chat';
  integration_id: string;
  channel: string;
  pattern: string;
}

export function scheduleOf(trigger: Trigger): ScheduleSource | undefined {
  return trigger.source.type === 'schedule' ? (trigger.source as unknown as ScheduleSource) : undefined;
}

export function eventOf(trigger: Trigger): EventSource | undefined {
  return trigger.source.type === 'event' ? (trigger.source as unknown as EventSource) : undefined;
}

export function mailOf(trigger: Trigger): MailSource | undefined {
  return trigger.source.type === 'mail' ? (trigger.source as unknown as MailSource) : undefined;
}

export function chatOf(trigger: Trigger): ChatSource | undefined {
  return trigger.source.type === 'chat' ? (trigger.source as unknown as ChatSource) : undefined;
}

/** Whether `Fire now` can run it: mail and chat triggers run for their mail and messages only (409 `trigger_not_fireable`). */
export function isFireable(trigger: Trigger): boolean {
  return trigger.source.type === 'schedule' || trigger.source.type === 'event';
}

export const triggerKeys = {
  all: ['triggers'] as const,
  lists: ['triggers', 'list'] as const,
  list: (type: string) => ['triggers', 'list', type] as const,
  detail: (id: string) => ['triggers', 'detail', id] as const,
  runs: (id: string) => ['triggers', 'runs', id] as const,
};

/** GET /triggers, newest first, by kind, a page at a time. */
export function useTriggers(type: TriggerKind | undefined) {
  return usePagedList(triggerKeys.list(type ?? 'any'), async (cursor) => {
    const page = data(await api().GET('/triggers', { params: { query: { type, cursor, limit: 25 } } }));
    return { items: page.triggers, next_cursor: page.next_cursor };
  });
}

/**
 * The tenant's integrations of a kind a trigger can use, all at once (a tenant has at most 50), for
 * the form's select; under the integrations' list key, so connecting or deleting one refreshes it.
 */
export function useIntegrationChoices(kind: Integration['kind'], enabled = true) {
  return useQuery({
    queryKey: [...integrationKeys.lists, `${kind}-choices`],
    queryFn: async () => data(await api().GET('/integrations', { params: { query: { kind, limit: 100 } } })).integrations,
    enabled,
  });
}

/** GET /triggers/{trigger_id}. */
export function useTrigger(triggerId: string, enabled = true) {
  return useQuery({
    queryKey: triggerKeys.detail(triggerId),
    queryFn: async () => data(await api().GET('/triggers/{trigger_id}', { params: { path: { trigger_id: triggerId } } })),
    enabled: enabled && Boolean(triggerId),
  });
}

/** GET /triggers/{trigger_id}/runs, newest first; refreshed every few seconds while open (runs happen without anyone asking). */
export function useTriggerRuns(triggerId: string) {
  const query = usePagedList(triggerKeys.runs(triggerId), async (cursor) => {
    const page = data(await api().GET('/triggers/{trigger_id}/runs', { params: { path: { trigger_id: triggerId }, query: { cursor, limit: 20 } } }));
    return { items: page.runs, next_cursor: page.next_cursor };
  });
  const client = useQueryClient();
  useEffect(() => {
    const timer = window.setInterval(() => void client.invalidateQueries({ queryKey: triggerKeys.runs(triggerId) }), 5_000);
    return () => window.clearInterval(timer);
  }, [client, triggerId]);
  return { ...query, refresh: () => client.invalidateQueries({ queryKey: triggerKeys.runs(triggerId) }) };
}

/** The mutations of triggers, each refreshing what it changes. */
export function useTriggerMutations() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: triggerKeys.all });
  const path = (triggerId: string) => ({ path: { trigger_id: triggerId } });
  return {
    create: useMutation({
      mutationFn: async (body: NewTrigger) => data(await api().POST('/triggers', { body })),
      onSuccess: () => client.invalidateQueries({ queryKey: triggerKeys.lists }),
    }),
    setEnabled: useMutation({
      mutationFn: async ({ triggerId, enabled }: { triggerId: string; enabled: boolean }) => data(await api().PATCH('/triggers/{trigger_id}', { params: path(triggerId), body: { enabled } })),
      onSuccess: refresh,
    }),
    fire: useMutation({
      mutationFn: async (triggerId: string) => data(await api().POST('/triggers/{trigger_id}/fire', { params: path(triggerId) })),
      onSuccess: () => Promise.all([refresh(), client.invalidateQueries({ queryKey: ['tasks', 'list'] })]),
    }),
    remove: useMutation({
      mutationFn: async (triggerId: string) => {
        await api().DELETE('/triggers/{trigger_id}', { params: path(triggerId) });
      },
      // Only the lists: the deleted trigger's own page is being left and must not refetch into a 404.
      onSuccess: () => client.invalidateQueries({ queryKey: triggerKeys.lists }),
    }),
  };
}
