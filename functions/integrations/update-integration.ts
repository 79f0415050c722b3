import { renderIntegration } from '#shared/domain/integration';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { updateIntegration } from '#shared/services/integration-admin';
import { integrationParams, updateIntegrationBody } from '#functions/integrations/schemas';

/** PATCH /integrations/{integration_id}: rename, change settings, or replace (and re-check) the credentials. */
export const handler = routeHandler({ params: integrationParams, body: updateIntegrationBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderIntegration(await updateIntegration(tenantId, params.integration_id, body))),
);
