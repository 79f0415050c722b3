import { api } from './client';
import { backoffMs, createSseParser, type SseMessage } from '../lib/sse-parser';
import { ProblemError, problemFromStreamFrame } from './problem-error';
import { signIn } from '../auth/session';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface FollowOptions {
  /** Filters of GET /events/stream (task_id, agent, types). */
  query: { task_id?: string; agent?: string; types?: string };
  /** Resume after this event (Last-Event-ID); the stream starts now without it. */
  lastEventId?: string;
  onEvent: (message: SseMessage) => void;
  onState: (state: StreamState) => void;
  signal: AbortSignal;
}

const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
});

/**
 * Follows the event stream until `signal` aborts: through the typed client (so the bearer token
 * is sent; EventSource cannot), resuming with Last-Event-ID after every close or failure, with
 * backoff. Server-sent `retry:` sets the delay after a clean close. A stream the server ends with
 * an `event: error` frame (the session refused while it was open) fails as that problem would as
 * an HTTP answer: a 401 signs in again, a client error stops, a server error reconnects.
 */
export async function followEvents({ query, lastEventId, onEvent, onState, signal }: FollowOptions): Promise<void> {
  let resumeFrom = lastEventId;
  let failures = 0;
  let retryMs = 1000;
  while (!signal.aborted) {
    onState(failures ? 'reconnecting' : 'connecting');
    try {
      const headers: Record<string, string> = resumeFrom ? { 'Last-Event-ID': resumeFrom } : {};
      const { data: body } = await api().GET('/events/stream', { params: { query }, headers, parseAs: 'stream', signal });
      if (!body) throw new Error('The event stream answered without a body.');
      let ended: ProblemError | undefined;
      const parser = createSseParser(
        (message) => {
          resumeFrom = message.id ?? resumeFrom;
          if (message.event === 'error') ended = problemFromStreamFrame(message.data);
          else if (message.event !== 'stream.checkpoint') onEvent(message);
        },
        (ms) => (retryMs = ms),
      );
      const reader = body.pipeThrough(new TextDecoderStream()).getReader();
      onState('live');
      failures = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value);
        resumeFrom = parser.lastEventId ?? resumeFrom;
      }
      if (ended) {
        if (ended.status === 401) void signIn();
        throw ended;
      }
      // A clean close (the server's time limit): come back after its retry delay.
      if (!signal.aborted) onState('reconnecting');
      await sleep(retryMs, signal);
    } catch (error) {
      if (signal.aborted) break;
      // A client error (403, 404, 400) will not heal by retrying.
      if (error instanceof ProblemError && error.status < 500 && error.status !== 429) {
        onState('stopped');
        throw error;
      }
      failures += 1;
      onState('reconnecting');
      await sleep(backoffMs(failures), signal);
    }
  }
  onState('stopped');
}
