import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import type { components } from '../../../api/schema';

export type Invitation = components['schemas']['InvitationList']['invitations'][number];
const keys = ['invitations'] as const;

/** GET /me/invitations: the signed-in person's pending invitations. */
export function useInvitations() {
  return useQuery({ queryKey: keys, queryFn: async () => data(await api().GET('/me/invitations')).invitations });
}

/** Accept or decline one; accepting changes who the person is (GET /me), so every query is read again. */
export function useInvitationMutations() {
  const client = useQueryClient();
  const path = (tenantId: string) => ({ params: { path: { tenant_id: tenantId } } });
  return {
    accept: useMutation({ mutationFn: async (tenantId: string) => data(await api().POST('/me/invitations/{tenant_id}/accept', path(tenantId))), onSuccess: () => client.invalidateQueries() }),
    decline: useMutation({
      mutationFn: async (tenantId: string) => {
        await api().POST('/me/invitations/{tenant_id}/decline', path(tenantId));
      },
      onSuccess: () => client.invalidateQueries({ queryKey: keys }),
    }),
  };
}
