import { renderRetention } from '#shared/domain/retention';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { loadSettings } from '#shared/services/tenant-settings';
import { noQuery } from '#functions/settings/schemas';

/** GET /settings/retention: the tenant's plan, the retention in force and what it may be set to. */
export const handler = routeHandler({ query: noQuery }, async ({ tenantId }) => jsonResponse(200, renderRetention(await loadSettings(tenantId))));
