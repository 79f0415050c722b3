import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';

const key = ['settings', 'retention'] as const;

/** GET /settings/retention: the plan and how long artifacts are kept (every role reads it). */
export function useRetention() {
  return useQuery({ queryKey: key, queryFn: async () => data(await api().GET('/settings/retention')) });
}

/** PATCH /settings/retention (admin): whole days, or null for indefinitely. */
export function useChangeRetention() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (retentionDays: number | null) => data(await api().PATCH('/settings/retention', { body: { retention_days: retentionDays } })),
    onSuccess: (settings) => client.setQueryData(key, settings),
  });
}
