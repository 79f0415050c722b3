import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import { usePagedList } from '../../../api/paged';
import type { components } from '../../../api/schema';
import type { Role } from '#shared/domain/roles';

export type ApiKey = components['schemas']['ApiKey'];
const keys = ['api-keys'] as const;

/** GET /api-keys (admin: render only for admins), oldest first, revoked ones included. */
export function useApiKeys() {
  return usePagedList(keys, async (cursor) => {
    const page = data(await api().GET('/api-keys', { params: { query: { cursor, limit: 50 } } }));
    return { items: page.api_keys, next_cursor: page.next_cursor };
  });
}

/**
 * POST /api-keys: the answer holds the key itself, once. No Idempotency-Key on purpose: a
 * replayed answer comes without the key, so a retry would leave the person with nothing to copy.
 */
export function useGenerateKey() {
  const client = useQueryClient();
  return useMutation({
    // The document names only `key` in this answer; the route answers the whole record with it (docs/api.md).
    mutationFn: async (body: { name: string; role: Role; agent?: string }) => data(await api().POST('/api-keys', { body })) as ApiKey & { key: string },
    onSuccess: () => client.invalidateQueries({ queryKey: keys }),
  });
}

/** DELETE /api-keys/{key_id}: revokes the key (401 from then on). */
export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) => {
      await api().DELETE('/api-keys/{key_id}', { params: { path: { key_id: keyId } } });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: keys }),
  });
}
