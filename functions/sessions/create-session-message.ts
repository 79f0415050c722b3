import { renderMessage } from '#shared/domain/session';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { postMessage } from '#shared/services/session-messages';
import { createMessageBody, sessionParams } from '#functions/sessions/schemas';

/** POST /sessions/{session_id}/messages → 201; with `task_type` the message starts a task in the session. */
export const handler = routeHandler({ params: sessionParams, body: createMessageBody }, async ({ tenantId, caller, params, body }) => {
  const message = await postMessage(tenantId, caller.principal, params.session_id, body);
  return jsonResponse(201, renderMessage(message));
});
