import { renderIntegration } from '#shared/domain/integration';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { connectIntegration } from '#shared/services/integration-admin';
import { createIntegrationBody } from '#functions/integrations/schemas';

/** POST /integrations → 201: credentials checked with the provider, stored encrypted, never returned. */
export const handler = routeHandler({ body: createIntegrationBody }, async ({ tenantId, body }) => {
  const integration = await connectIntegration(tenantId, body);
  return jsonResponse(201, renderIntegration(integration), { Location: `/v1/integrations/${integration.integration_id}` });
});
