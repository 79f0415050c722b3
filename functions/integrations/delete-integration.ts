import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { deleteIntegration } from '#shared/services/integrations';
import { integrationParams } from '#functions/integrations/schemas';

/** DELETE /integrations/{integration_id} → 204; the encrypted credentials are destroyed with it. */
export const handler = routeHandler({ params: integrationParams }, async ({ tenantId, params }) => {
  await deleteIntegration(tenantId, params.integration_id);
  return emptyResponse(204);
});
