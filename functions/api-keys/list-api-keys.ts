import { renderApiKey } from '#shared/domain/api-key';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listTenantApiKeys } from '#shared/services/api-keys';
import { listApiKeysQuery } from '#functions/api-keys/schemas';

/** GET /api-keys: the tenant's keys, oldest first, revoked ones with `revoked_at`; never a key or its hash. */
export const handler = routeHandler({ query: listApiKeysQuery }, async ({ tenantId, query }) => {
  const { apiKeys, nextCursor } = await listTenantApiKeys(tenantId, query);
  return jsonResponse(200, { api_keys: apiKeys.map(renderApiKey), next_cursor: nextCursor });
});
