import { Writable } from 'node:stream';

/**
 * The `awslambda` global that Lambda's Node.js runtime provides for response streaming, played
 * locally: `streamifyResponse` marks a handler as streaming, and `HttpResponseStream.from`
 * carries the status and headers (the "prelude") ahead of the body, as the runtime does.
 */
export const STREAMING = Symbol.for('gatehouse.streamingHandler');

export interface ResponsePrelude {
  statusCode?: number;
  headers?: Record<string, string>;
}

export interface LocalResponseStream extends Writable {
  setPrelude?(prelude: ResponsePrelude): void;
}

export type StreamingHandler = (event: unknown, responseStream: LocalResponseStream, context: unknown) => Promise<void>;

export function installLambdaStreamingGlobal(): void {
  // Other libraries may have created `awslambda` already (Powertools keeps its invoke store
  // there), so the streaming functions are added to it rather than replacing it.
  const global = globalThis as { awslambda?: Record<string, unknown> };
  if (typeof global.awslambda?.streamifyResponse === 'function') return;
  global.awslambda = {
    ...global.awslambda,
    streamifyResponse(handler: StreamingHandler) {
      return Object.assign(handler, { [STREAMING]: true });
    },
    HttpResponseStream: {
      from(stream: LocalResponseStream, prelude: ResponsePrelude) {
        stream.setPrelude?.(prelude);
        return stream;
      },
    },
  };
}

export function isStreamingHandler(handler: unknown): handler is StreamingHandler {
  return typeof handler === 'function' && (handler as unknown as Record<symbol, unknown>)[STREAMING] === true;
}
