import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { getIntegerFromEnv } from '#shared/config/env';
import { problemResponse } from '#shared/http/problem';

/** API Gateway's own payload limit; our handlers enforce the smaller 1 MiB themselves. */
export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The time a request's headers and body have to arrive by default: API Gateway's integration timeout. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const MAX_REQUEST_TIMEOUT_MS = 3_600_000;

/** GATEHOUSE_REQUEST_TIMEOUT_MS, checked at start: how long a request's headers and body may take to arrive. */
export function requestTimeoutMsFromEnv(): number {
  const ms = getIntegerFromEnv('GATEHOUSE_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS);
  if (ms < 1 || ms > MAX_REQUEST_TIMEOUT_MS) throw new Error(`Environment variable GATEHOUSE_REQUEST_TIMEOUT_MS must be from 1 to ${MAX_REQUEST_TIMEOUT_MS}, got '${ms}'.`);
  return ms;
}

/**
 * Node's own request timeouts, which end a request whose headers or body arrive too slowly (answered
 * 408 by `answerClientError`). Node looks for such requests every `connectionsCheckingInterval`,
 * so that interval is a fraction of the timeout: the answer comes soon after the deadline.
 */
export function timeoutOptions(requestTimeoutMs: number): ServerOptions {
  return { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(requestTimeoutMs / 4))) };
}

/** How long a closed connection's further input is read and dropped before the socket goes. */
const LINGER_MS = 2_000;
/** Connections answered 400, 408, 413 or 431 and closing: nothing more they send is served. */
const closingConnections = new WeakSet<object>();

/** Whether the request's connection was answered and is closing (its request must not take effect). */
export function isClosing(request: IncomingMessage): boolean {
  return closingConnections.has(request.socket);
}

/** Answers 413 on the request's connection and closes it: the rest of the body is never read in. */
export function refuseTooLargeBody(request: IncomingMessage): void {
  answerAndClose(request.socket, problemResponse({ status: 413, code: 'payload_too_large', detail: 'The request body is too large.' }));
}

/** A Content-Length over the limit is refused from the headers, before a byte of the body is read. */
export function declaresTooLargeBody(request: IncomingMessage): boolean {
  return Number(request.headers['content-length'] ?? 0) > GATEWAY_MAX_BODY_BYTES;
}

/**
 * `Expect: 100-continue` (curl sends it with large bodies): a body over the limit is refused
 * without inviting the client to send it; any other request is invited and handled as usual.
 */
export function continueUnlessTooLarge(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    if (!declaresTooLargeBody(request)) response.writeContinue();
    handle(request, response);
  };
}

const NO_BODY = Buffer.alloc(0);

/**
 * The request body, or 'too_large' as soon as it grows past the limit (a chunked body declares no
 * size): the body is no longer kept, and the caller refuses it (`refuseTooLargeBody`).
 */
export function readBody(request: IncomingMessage): Promise<Buffer | 'too_large'> {
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): most GETs.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return Promise.resolve(NO_BODY);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
      // What still arrives is dropped while the connection lingers (answerAndClose).
      else settle(() => (request.resume(), resolve('too_large')));
    };
    // A body that ends after its request was answered 408 (while the connection lingers) is dropped.
    const onEnd = () => settle(() => (isClosing(request) ? reject(new Error('The request was answered already.')) : resolve(Buffer.concat(chunks))));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () => settle(() => reject(new Error('The client closed the connection before the request body ended.')));
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node's parser refuses (headers or URL over 16 KiB, broken framing) or ends for being
 * too slow get a problem+json as API Gateway's DEFAULT_4XX gives, instead of Node's bare status
 * line, and the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) return void socket.destroy();
  const result =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problemResponse({ status: 431, code: 'headers_too_large', detail: 'The request line and headers are too large.' })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problemResponse({ status: 408, code: 'request_timeout', detail: 'The request did not arrive in time: its headers or body came too slowly.' })
        : problemResponse({ status: 400, code: 'bad_request', detail: 'The request is not valid HTTP.' });
  answerAndClose(socket, result);
}

/**
 * Writes an answer straight to the connection, then closes it the way servers do a lingering
 * close: our side first, then what the client still sends is read and dropped until it hangs up
 * or LINGER_MS pass. Closing with its bytes unread would reset the connection, and a client still
 * writing its request could lose the answer.
 */
function answerAndClose(socket: Duplex, result: APIGatewayProxyResult): void {
  closingConnections.add(socket);
  const head = Object.entries({ ...result.headers, 'Content-Length': String(Buffer.byteLength(result.body)), Connection: 'close' }).map(([name, value]) => `${name}: ${value}`);
  socket.end(`HTTP/1.1 ${result.statusCode} ${REASONS[result.statusCode]}\r\n${head.join('\r\n')}\r\n\r\n${result.body}`);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.resume();
}
