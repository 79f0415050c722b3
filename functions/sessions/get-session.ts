import { renderSession } from '#shared/domain/session';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getSession } from '#shared/services/sessions';
import { sessionParams } from '#functions/sessions/schemas';

/** GET /sessions/{session_id}. */
export const handler = routeHandler({ params: sessionParams }, async ({ tenantId, params }) => jsonResponse(200, renderSession(await getSession(tenantId, params.session_id))));
