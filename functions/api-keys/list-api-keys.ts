import { renderApiKey } from '#shared/domain/api-key';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { keyStandings, listTenantApiKeys } from '#shared/services/api-keys';
import { listApiKeysQuery } from '#functions/api-keys/schemas';

/**
 * GET /api-keys: the tenant's keys, oldest first, revoked ones with `revoked_at`, each with what it
 * may do now under its person (`role`, `granted_role`, `capped`, `suspended`); never a key or its hash.
 */
export const handler = routeHandler({ query: listApiKeysQuery }, async ({ tenantId, query }) => {
  const { apiKeys, nextCursor } = await listTenantApiKeys(tenantId, query);
  const standings = await keyStandings(tenantId, apiKeys);
  return jsonResponse(200, { api_keys: apiKeys.map((record) => renderApiKey(record, standings.get(record.key_id))), next_cursor: nextCursor });
});
