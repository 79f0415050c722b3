/** One dispatched Server-Sent Event (WHATWG HTML "event stream interpretation"). */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * An incremental SSE parser: feed it text as it arrives (any chunking, any of CRLF, LF, CR line
 * ends); it calls `onMessage` for every complete event and `onRetry` for a `retry:` field.
 * `lastEventId` is the last id seen, also from events without data, for Last-Event-ID.
 */
export function createSseParser(onMessage: (message: SseMessage) => void, onRetry: (milliseconds: number) => void = () => undefined) {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let lastEventId: string | undefined;
  let pendingCr = false;

  const dispatch = () => {
    if (data.length) onMessage({ id: lastEventId, event: event || 'message', data: data.join('\n') });
    data = [];
    event = '';
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };

  return {
    push(chunk: string) {
      // A CR at the end of the last chunk may be the first half of a CRLF.
      if (pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
      pendingCr = false;
      buffer += chunk;
      const parts = buffer.split(/\r\n|\n|\r/);
      buffer = parts.pop() ?? '';
      if (chunk.endsWith('\r') && buffer === '') pendingCr = true;
      for (const part of parts) line(part);
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}

/** Reconnect delay after `failures` consecutive failures: doubling from `base`, capped, with jitter. */
export function backoffMs(failures: number, base = 1000, cap = 15_000, random = Math.random): number {
  const delay = Math.min(cap, base * 2 ** Math.max(0, failures - 1));
  return Math.round(delay / 2 + (random() * delay) / 2);
}
