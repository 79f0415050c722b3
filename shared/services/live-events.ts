import { eventRepository, lastIdAt, type EventFilters } from '#shared/adapters/dynamodb/event-repository';
import { canonicalAgentFilter } from '#shared/agents/directory';
import { getIntegerFromEnv } from '#shared/config/env';
import { streamEvents, type CallerRecheck } from '#shared/streaming/event-stream';

/** Kept back from the function's time limit, so the stream ends cleanly before it. */
const CLOSE_MARGIN_MS = 10_000;
/**
 * The longest silence between two writes, whatever STREAM_HEARTBEAT_SECONDS says: well inside
 * CloudFront's 60 s origin read timeout on `/v1/*` and API Gateway's 5-minute idle timeout, either
 * of which would otherwise cut an idle stream.
 */
const MAX_HEARTBEAT_SECONDS = 30;

export interface FollowRequest extends EventFilters {
  /** The last event the client received (Last-Event-ID); without it, only new events are sent. */
  lastEventId?: string;
  /** Time left before the function's time limit. */
  remainingMs: number;
  /** Checks the caller again this often; a refusal ends the stream with an `event: error` frame. */
  recheck?: { everyMs: number; check: CallerRecheck };
}

/**
 * Writes the tenant's events as SSE frames to `write` until STREAM_MAX_SECONDS have passed or the
 * function's time limit nears (the client then reconnects with Last-Event-ID and loses nothing),
 * or until `write` reports the client gone or a re-check refuses the caller. An agent alias
 * filters as its slug.
 */
export async function followEvents(tenantId: string, request: FollowRequest, write: (chunk: string) => boolean): Promise<void> {
  const filters: EventFilters = { taskId: request.taskId, agent: request.agent ? canonicalAgentFilter(request.agent) : undefined, types: request.types };
  const maxMs = getIntegerFromEnv('STREAM_MAX_SECONDS', 840) * 1000;
  await streamEvents(
    { after: async (afterId, untilId, limit) => (await eventRepository.after(tenantId, filters, afterId, untilId, limit)).events, idAt: lastIdAt },
    {
      lastEventId: request.lastEventId,
      deadline: Date.now() + Math.min(maxMs, request.remainingMs - CLOSE_MARGIN_MS),
      heartbeatMs: Math.min(getIntegerFromEnv('STREAM_HEARTBEAT_SECONDS', 15), MAX_HEARTBEAT_SECONDS) * 1000,
      pollMs: getIntegerFromEnv('STREAM_POLL_MILLISECONDS', 500),
      settleMs: 1_000,
      reconnectMs: 1_000,
      recheck: request.recheck,
    },
    write,
  );
}
