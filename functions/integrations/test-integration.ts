import { toolProxy } from '#shared/adapters/lambda/tool-proxy-client';
import { ConflictError } from '#shared/domain/errors';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getIntegration } from '#shared/services/integrations';
import { integrationParams } from '#functions/integrations/schemas';

/**
 * POST /integrations/{integration_id}/test: one provider call with the stored credentials (refused
 * ones revoke it); 409 `integration_url_unverified` when they were checked against another URL.
 */
export const handler = routeHandler({ params: integrationParams }, async ({ tenantId, params }) => {
  await getIntegration(tenantId, params.integration_id);
  const answer = await toolProxy.testIntegration({ action: 'test_integration', tenant_id: tenantId, integration_id: params.integration_id });
  if (!answer.ok && answer.error?.code === 'integration_url_unverified') throw new ConflictError('integration_url_unverified', answer.error.message);
  return jsonResponse(200, answer);
});
