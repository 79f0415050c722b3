import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { revokeTenantApiKey } from '#shared/services/api-keys';
import { apiKeyParams } from '#functions/api-keys/schemas';

/** DELETE /api-keys/{key_id} → 204; the key is refused (401) once the authorizer's cached answer expires. */
export const handler = routeHandler({ params: apiKeyParams }, async ({ caller, params }) => {
  await revokeTenantApiKey(caller, params.key_id);
  return emptyResponse(204);
});
