import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import type { components } from '../../../api/schema';
import type { JsonSchema } from '../../../lib/schema-form/fields';

export type Agent = components['schemas']['Agent'];
export type CatalogAgent = components['schemas']['CatalogAgent'];

/** A manifest's task type with what the dashboard reads from it (the OpenAPI schema keeps it open). */
export interface TaskTypeManifest {
  task_type: string;
  description?: string;
  input_schema?: JsonSchema;
  artifact_types?: string[];
}

export const agentKeys = {
  all: ['agents'] as const,
  catalog: ['agents', 'catalog'] as const,
  manifest: (agentId: string) => ['agents', agentId, 'manifest'] as const,
};

/** GET /agents: the tenant's deployed agents. */
export function useAgents() {
  return useQuery({ queryKey: agentKeys.all, queryFn: async () => data(await api().GET('/agents')).agents });
}

/** GET /agents/catalog: the agents that can be deployed. */
export function useCatalog(enabled = true) {
  return useQuery({ queryKey: agentKeys.catalog, queryFn: async () => data(await api().GET('/agents/catalog')).data, enabled });
}

/** GET /agents/{agent_id}/manifest: its task types and their input schemas. */
export function useManifest(agentId: string, enabled = true) {
  return useQuery({
    queryKey: agentKeys.manifest(agentId),
    queryFn: async () => {
      const manifest = data(await api().GET('/agents/{agent_id}/manifest', { params: { path: { agent_id: agentId } } }));
      return { ...manifest, task_types: manifest.task_types as TaskTypeManifest[] };
    },
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** POST /agents/deploy. */
export function useDeployAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { agent_slug: string; name?: string }) => data(await api().POST('/agents/deploy', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** PATCH /agents/{agent_id}/config. */
export function useUpdateAgentConfig(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { approval_ttl_hours?: number }) => data(await api().PATCH('/agents/{agent_id}/config', { params: { path: { agent_id: agentId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.all }),
  });
}
