import type { ServiceEvent } from '#shared/domain/event';
import { commentFrame, errorFrame, eventFrame, positionFrame, retryFrame } from '#shared/streaming/sse';

export interface EventFeed {
  /** Events with ids above `afterId` and at or below `untilId`, oldest first. */
  after(afterId: string, untilId: string, limit: number): Promise<ServiceEvent[]>;
  /** The highest id an event created at or before `ms` can have. */
  idAt(ms: number): string;
}

/**
 * Checks the stream's caller again: undefined while it may still read the stream, otherwise the
 * problem (401 revoked or expired, 403 role no longer allowed) the stream ends with.
 */
export type CallerRecheck = () => Promise<object | undefined>;

export interface StreamOptions {
  /** The id to resume after (Last-Event-ID); without it the stream starts with new events. */
  lastEventId?: string;
  /** When the stream must have ended (epoch ms): before the function's time limit. */
  deadline: number;
  heartbeatMs: number;
  pollMs: number;
  /**
   * Events are listed only once they are this old. An event's id is minted just before its
   * transaction commits; waiting this long means a slower commit of a lower id is not skipped.
   */
  settleMs: number;
  reconnectMs: number;
  /** The caller is checked again this often, before the events of the next poll go out. */
  recheck?: { everyMs: number; check: CallerRecheck };
  now?: () => number;
}

/**
 * Writes the tenant's events as SSE frames until the deadline, then returns so the response can
 * end cleanly and the client reconnect with Last-Event-ID. Resuming after an id sends every later
 * event exactly once, in id order. `write` returns false once the client is gone. With `recheck`,
 * no event goes out more than `everyMs` after the last check that allowed the caller; a refused
 * check ends the stream with an `event: error` frame carrying the problem.
 */
export async function streamEvents(feed: EventFeed, options: StreamOptions, write: (chunk: string) => boolean): Promise<'deadline' | 'disconnected' | 'refused'> {
  const now = options.now ?? Date.now;
  // Everything up to `position` has been sent. It advances to the settled horizon after each
  // poll, and goes out as a bare `id:` line with heartbeats and at the close: the client's
  // Last-Event-ID then resumes from there even if no event arrived on this connection.
  let position = options.lastEventId ?? feed.idAt(now());
  let lastWrite = now();
  let lastCheck = now();
  if (!write(retryFrame(options.reconnectMs))) return 'disconnected';
  while (now() < options.deadline) {
    if (options.recheck && now() - lastCheck >= options.recheck.everyMs) {
      const problem = await options.recheck.check();
      if (problem) {
        write(errorFrame(position, problem));
        return 'refused';
      }
      lastCheck = now();
    }
    const horizon = feed.idAt(now() - options.settleMs);
    let full = false;
    if (horizon > position) {
      const events = await feed.after(position, horizon, 100);
      for (const event of events) {
        if (!write(eventFrame(event))) return 'disconnected';
        lastWrite = now();
      }
      full = events.length === 100;
      position = full ? events[events.length - 1].event_id : horizon;
    }
    if (full) continue;
    if (now() - lastWrite >= options.heartbeatMs) {
      if (!write(commentFrame(`heartbeat ${new Date(now()).toISOString()}`) + positionFrame(position))) return 'disconnected';
      lastWrite = now();
    }
    const pause = Math.min(options.pollMs, options.deadline - now());
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
  }
  write(commentFrame('stream closing before the function time limit; reconnect with Last-Event-ID') + positionFrame(position));
  return 'deadline';
}
