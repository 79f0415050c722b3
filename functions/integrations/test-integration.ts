import { toolProxy } from '#shared/adapters/lambda/tool-proxy-client';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getIntegration } from '#shared/services/integrations';
import { integrationParams } from '#functions/integrations/schemas';

/** POST /integrations/{integration_id}/test: one provider call with the stored credentials (refused ones revoke it). */
export const handler = routeHandler({ params: integrationParams }, async ({ tenantId, params }) => {
  await getIntegration(tenantId, params.integration_id);
  const answer = await toolProxy.testIntegration({ action: 'test_integration', tenant_id: tenantId, integration_id: params.integration_id });
  return jsonResponse(200, answer);
});
