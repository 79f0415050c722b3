import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components, operations } from '../../../api/schema';

export type Integration = components['schemas']['Integration'];
export type IntegrationTest = components['schemas']['IntegrationTest'];
export type IntegrationKind = Integration['kind'];
export type NewIntegration = operations['postIntegrations']['requestBody']['content']['application/json'];
/** New credentials for PATCH, in the shape of the integration's kind. */
export type IntegrationCredentials = NewIntegration['credentials'];

export const INTEGRATION_KINDS: IntegrationKind[] = ['github', 'slack', 'email'];

/** Each kind's name in words. */
export const KIND_LABELS: Record<IntegrationKind, string> = { github: 'GitHub', slack: 'Slack', email: 'Email' };

export const integrationKeys = {
  all: ['integrations'] as const,
  lists: ['integrations', 'list'] as const,
  list: (kind: string) => ['integrations', 'list', kind] as const,
  detail: (id: string) => ['integrations', 'detail', id] as const,
};

/** GET /integrations, newest first, by kind, a page at a time. */
export function useIntegrations(kind: IntegrationKind | undefined) {
  return usePagedList(integrationKeys.list(kind ?? 'any'), async (cursor) => {
    const page = data(await api().GET('/integrations', { params: { query: { kind, cursor, limit: 25 } } }));
    return { items: page.integrations, next_cursor: page.next_cursor };
  });
}

/** GET /integrations/{integration_id} (never its credentials). */
export function useIntegration(integrationId: string) {
  return useQuery({
    queryKey: integrationKeys.detail(integrationId),
    queryFn: async () => data(await api().GET('/integrations/{integration_id}', { params: { path: { integration_id: integrationId } } })),
    enabled: Boolean(integrationId),
  });
}

/** The mutations of integrations, each refreshing what it changes. */
export function useIntegrationMutations() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: integrationKeys.all });
  const path = (integrationId: string) => ({ path: { integration_id: integrationId } });
  return {
    create: useMutation({
      mutationFn: async (body: NewIntegration) => data(await api().POST('/integrations', { body })),
      onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.lists }),
    }),
    replaceCredentials: useMutation({
      mutationFn: async ({ integrationId, credentials }: { integrationId: string; credentials: IntegrationCredentials }) =>
        data(await api().PATCH('/integrations/{integration_id}', { params: path(integrationId), body: { credentials: credentials as Record<string, unknown> } })),
      onSuccess: refresh,
    }),
    // A test may revoke the integration (refused credentials) or mark it used: both change what the pages show.
    test: useMutation({
      mutationFn: async (integrationId: string) => data(await api().POST('/integrations/{integration_id}/test', { params: path(integrationId) })),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: async (integrationId: string) => {
        await api().DELETE('/integrations/{integration_id}', { params: path(integrationId) });
      },
      // Only the lists: the deleted integration's own page is being left and must not refetch into a 404.
      onSuccess: () => client.invalidateQueries({ queryKey: integrationKeys.lists }),
    }),
  };
}
