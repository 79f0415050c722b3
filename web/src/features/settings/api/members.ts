import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import { ProblemError } from '../../../api/problem-error';
import type { components } from '../../../api/schema';
import type { MemberRole as Role } from '#shared/domain/roles';

export type Member = components['schemas']['Member'];
const keys = ['members'] as const;

/** GET /members (admin: render only for admins), oldest first. */
export function useMembers() {
  return usePagedList(keys, async (cursor) => {
    const page = data(await api().GET('/members', { params: { query: { cursor, limit: 50 } } }));
    return { items: page.members, next_cursor: page.next_cursor };
  });
}

/** POST /members, PATCH /members/{user_id}, DELETE /members/{user_id}; each refreshes the list. */
export function useMemberMutations() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keys });
  const path = (userId: string) => ({ path: { user_id: userId } });
  return {
    invite: useMutation({ mutationFn: async (body: { email: string; role: Role }) => data(await api().POST('/members', { body })), onSuccess: refresh }),
    // Refreshed on failure too: a refused change puts the select back to the stored role.
    changeRole: useMutation({ mutationFn: async ({ userId, role }: { userId: string; role: Role }) => data(await api().PATCH('/members/{user_id}', { params: path(userId), body: { role } })), onSettled: refresh }),
    remove: useMutation({
      mutationFn: async (userId: string) => {
        await api().DELETE('/members/{user_id}', { params: path(userId) });
      },
      onSuccess: refresh,
    }),
  };
}

/** The API's refusals of a members change (409) said plainly, with what to do; undefined for any other error. */
export function memberConflictMessage(error: unknown): string | undefined {
  if (!(error instanceof ProblemError) || error.status !== 409) return undefined;
  if (error.code === 'last_admin') return 'Your tenant must keep at least one admin, and this is the last one. Make another member admin first, then change or remove this one.';
  if (error.code === 'member_changed_concurrently') return 'The members changed while this was saved (another admin, or a first sign-in). The list is fresh again: try once more.';
  if (error.code === 'member_exists') return 'This email is already a member, here or in another tenant: a person belongs to one tenant only.';
  return undefined;
}
