import { renderIntegration } from '#shared/domain/integration';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getIntegration } from '#shared/services/integrations';
import { integrationParams } from '#functions/integrations/schemas';

/** GET /integrations/{integration_id}: status, account, settings, last use; never the credentials. */
export const handler = routeHandler({ params: integrationParams }, async ({ tenantId, params }) => jsonResponse(200, renderIntegration(await getIntegration(tenantId, params.integration_id))));
