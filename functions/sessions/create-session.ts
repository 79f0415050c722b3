import { renderSession } from '#shared/domain/session';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { createSession } from '#shared/services/session-creation';
import { createSessionBody } from '#functions/sessions/schemas';

/** POST /sessions → 201 with the open session. */
export const handler = routeHandler({ body: createSessionBody }, async ({ tenantId, body }) => {
  const session = await createSession(tenantId, body);
  return jsonResponse(201, renderSession(session), { Location: `/v1/sessions/${session.session_id}` });
});
