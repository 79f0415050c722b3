import { toolProxy, ToolProxyUnavailableError } from '#shared/adapters/lambda/tool-proxy-client';
import { ServiceUnavailableError } from '#shared/domain/errors';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getIntegration } from '#shared/services/integrations';
import { integrationParams } from '#functions/integrations/schemas';

/** POST /integrations/{integration_id}/test: one provider call with the stored credentials (refused ones revoke it). */
export const handler = routeHandler({ params: integrationParams }, async ({ tenantId, params }) => {
  await getIntegration(tenantId, params.integration_id);
  const answer = await toolProxy.testIntegration({ action: 'test_integration', tenant_id: tenantId, integration_id: params.integration_id }).catch((error: unknown) => {
    if (error instanceof ToolProxyUnavailableError) throw new ServiceUnavailableError();
    throw error;
  });
  return jsonResponse(200, answer);
});
