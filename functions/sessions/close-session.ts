import { renderSession } from '#shared/domain/session';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { closeSession } from '#shared/services/sessions';
import { closeSessionBody, sessionParams } from '#functions/sessions/schemas';

/** POST /sessions/{session_id}/close → 200 with the closed session; 409 `session_closed` if it was. */
export const handler = routeHandler({ params: sessionParams, body: closeSessionBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderSession(await closeSession(tenantId, params.session_id, body.reason))),
);
