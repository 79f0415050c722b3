import { streamingRouteHandler } from '#shared/http/streaming-route-handler';
import { followEvents } from '#shared/services/live-events';
import { streamHeaders, streamQuery } from '#functions/events/schemas';

/**
 * GET /v1/events/stream: the tenant's events as Server-Sent Events, served by a Lambda with
 * response streaming through the REST API (integration in STREAM mode). It closes before the
 * function's time limit, clients reconnecting with Last-Event-ID and losing nothing, or with an
 * `event: error` frame once its caller is no longer allowed (re-checked at least every 30 s).
 */
export const handler = streamingRouteHandler({ path: '/events/stream', query: streamQuery, headers: streamHeaders }, async ({ tenantId, query, headers, remainingMs, recheck }) => (write) =>
  followEvents(tenantId, { taskId: query.task_id, agent: query.agent, types: query.types, lastEventId: headers['last-event-id'] ?? query.last_event_id, remainingMs, recheck }, write),
);
