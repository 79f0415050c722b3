import { streamingRouteHandler } from '#shared/http/streaming-route-handler';
import { followEvents } from '#shared/services/live-events';
import { streamHeaders, streamQuery } from '#functions/events/schemas';

/**
 * GET /v1/events/stream: the tenant's events as Server-Sent Events, served by a Lambda with
 * response streaming behind a Function URL. It closes before the function's time limit; clients
 * reconnect with Last-Event-ID and lose nothing.
 */
export const handler = streamingRouteHandler({ path: '/events/stream', query: streamQuery, headers: streamHeaders }, async ({ tenantId, query, headers, remainingMs }) => (write) =>
  followEvents(tenantId, { taskId: query.task_id, agent: query.agent, types: query.types, lastEventId: headers['last-event-id'] ?? query.last_event_id, remainingMs }, write),
);
