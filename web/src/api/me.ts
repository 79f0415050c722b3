import { useQuery } from '@tanstack/react-query';
import { api, data } from './client';
import type { components } from './schema';

export type Me = components['schemas']['Me'] & { principal: { email?: string; name?: string } };

/** GET /me: who is signed in, in which tenant, with which role. */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: async () => data(await api().GET('/me')) as Me, staleTime: 5 * 60_000 });
}
