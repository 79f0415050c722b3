import { renderMessage } from '#shared/domain/session';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listMessages } from '#shared/services/sessions';
import { listMessagesQuery, sessionParams } from '#functions/sessions/schemas';

/** GET /sessions/{session_id}/messages: the transcript, oldest first. */
export const handler = routeHandler({ params: sessionParams, query: listMessagesQuery }, async ({ tenantId, params, query }) => {
  const page = await listMessages(tenantId, params.session_id, query.limit, query.cursor);
  return jsonResponse(200, { messages: page.messages.map(renderMessage), next_cursor: page.nextCursor });
});
