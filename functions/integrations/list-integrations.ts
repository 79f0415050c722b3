import { renderIntegration } from '#shared/domain/integration';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listIntegrations } from '#shared/services/integrations';
import { listIntegrationsQuery } from '#functions/integrations/schemas';

/** GET /integrations: newest first, optionally of one kind, cursor-paged. */
export const handler = routeHandler({ query: listIntegrationsQuery }, async ({ tenantId, query }) => {
  const page = await listIntegrations(tenantId, query);
  return jsonResponse(200, { integrations: page.integrations.map(renderIntegration), next_cursor: page.nextCursor });
});
