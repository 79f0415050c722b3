import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_MAX_BODY_BYTES } from '#lib/local/gateway/request-limits';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';

/** Short, so that a request too slow is answered within the test; read by the runtime at start. */
const REQUEST_TIMEOUT_MS = 500;
/** How soon an answer counts as "at once" (far below any timeout of the gateway's own but this one). */
const PROMPTLY_MS = 3_000;

let runtime: TestRuntime;

interface Exchange {
  socket: Socket;
  /** Everything the server sent, once it closed the connection (or PROMPTLY_MS passed). */
  answer: Promise<{ text: string; closed: boolean; elapsedMs: number }>;
}

/**
 * A raw TCP connection to the gateway that sends exactly `head` (the bytes after it are up to the
 * test). `allowHalfOpen` keeps it sending after the server closed its side.
 */
function open(head: string, { allowHalfOpen = false } = {}): Exchange {
  const socket = connect({ port: runtime.port, host: '127.0.0.1', allowHalfOpen });
  socket.on('error', () => undefined); // a reset after the answer is the server's right
  const started = Date.now();
  const answer = new Promise<{ text: string; closed: boolean; elapsedMs: number }>((resolve) => {
    const chunks: Buffer[] = [];
    const done = (closed: boolean) => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => done(false), PROMPTLY_MS + REQUEST_TIMEOUT_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => done(true));
  });
  socket.write(head);
  return { socket, answer };
}

function problemOf(text: string): { status: number; contentType?: string; body: { code?: string; status?: number } } {
  const [head, body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const contentType = /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1];
  let parsed = {};
  try {
    parsed = JSON.parse(body);
  } catch {
    // not a problem document: only the status matters then
  }
  return { status, contentType, body: parsed };
}

/** Resolves once the server has sent `text` on the socket. */
function received(socket: Socket, text: string): Promise<void> {
  let seen = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) resolve(void socket.off('data', onData));
    };
    socket.on('data', onData);
  });
}

const chunkOf = (bytes: Buffer | string) => Buffer.concat([Buffer.from(`${Buffer.byteLength(bytes).toString(16)}\r\n`), Buffer.from(bytes), Buffer.from('\r\n')]);
const TASK = JSON.stringify({ agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });

const postHead = (extra: string) => `POST /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${runtime.keys.a}\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe('the local gateway refuses what API Gateway would refuse, from the headers and in time', () => {
  beforeAll(async () => {
    process.env.GATEHOUSE_REQUEST_TIMEOUT_MS = String(REQUEST_TIMEOUT_MS);
    runtime = await startTestRuntime('gateway-limits', { workers: false });
    await apiClient(runtime.baseUrl, runtime.keys.a)('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers 413 at once to a Content-Length over the limit, with nothing of the body sent, and closes', async () => {
    const { socket, answer } = open(postHead(`Content-Length: ${GATEWAY_MAX_BODY_BYTES + 1}\r\n`));

    const { text, closed, elapsedMs } = await answer;
    socket.destroy();

    expect(problemOf(text)).toMatchObject({ status: 413, contentType: 'application/problem+json', body: { code: 'payload_too_large', status: 413 } });
    expect(closed).toBe(true);
    expect(elapsedMs).toBeLessThan(PROMPTLY_MS);
  });

  it('answers 413 instead of 100 Continue when the client waits for leave to send a body over the limit', async () => {
    const { socket, answer } = open(postHead(`Content-Length: ${GATEWAY_MAX_BODY_BYTES * 2}\r\nExpect: 100-continue\r\n`));

    const { text } = await answer;
    socket.destroy();

    expect(text).not.toContain('100 Continue');
    expect(problemOf(text).status).toBe(413);
  });

  it('answers 413 to a chunked body as soon as it grows past the limit, and closes', async () => {
    const { socket, answer } = open(postHead('Transfer-Encoding: chunked\r\n'));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    let sentWhenAnswered = Infinity;
    let answered = false;
    socket.once('data', () => (sentWhenAnswered = sent));
    void answer.then(() => (answered = true));

    // Sends 1 MiB chunks until the server answers or the body is well past the limit.
    while (!answered && sent < GATEWAY_MAX_BODY_BYTES * 2 && !socket.destroyed) {
      const flushed = socket.write(chunkOf(chunk));
      sent += chunk.length;
      if (!flushed) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
    const { text, closed } = await answer;
    socket.destroy();

    expect(problemOf(text)).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    expect(closed).toBe(true);
    // Answered while the body was still coming, not after the client gave up sending it.
    expect(sentWhenAnswered).toBeGreaterThan(GATEWAY_MAX_BODY_BYTES);
    expect(sentWhenAnswered).toBeLessThan(GATEWAY_MAX_BODY_BYTES * 2);
  });

  it('answers 408 to a request whose headers never end, and closes', async () => {
    const { socket, answer } = open(`GET /v1/agents HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);

    const { text, closed, elapsedMs } = await answer;
    socket.destroy();

    expect(problemOf(text)).toMatchObject({ status: 408, contentType: 'application/problem+json', body: { code: 'request_timeout', status: 408 } });
    expect(closed).toBe(true);
    expect(elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  });

  it('answers 408 to a body that stops coming before its Content-Length', async () => {
    const { socket, answer } = open(`${postHead('Content-Length: 100\r\n')}{"agent":`);

    const { text, closed } = await answer;
    socket.destroy();

    expect(problemOf(text)).toMatchObject({ status: 408, body: { code: 'request_timeout' } });
    expect(closed).toBe(true);
  });

  it('serves nothing more on a connection it answered: neither a body completed after its 408 nor a request after a 413', async () => {
    const late = open(`${postHead(`Content-Length: ${TASK.length}\r\n`)}${TASK.slice(0, 10)}`, { allowHalfOpen: true });
    await received(late.socket, ' 408 ');
    late.socket.end(TASK.slice(10));
    const chunked = open(postHead('Transfer-Encoding: chunked\r\n'), { allowHalfOpen: true });
    const refused = received(chunked.socket, ' 413 ');
    for (let sent = 0; sent <= GATEWAY_MAX_BODY_BYTES; sent += 1024 * 1024) chunked.socket.write(chunkOf(Buffer.alloc(1024 * 1024, 0x20)));
    await refused;
    chunked.socket.end(`0\r\n\r\n${postHead(`Content-Length: ${TASK.length}\r\n`)}${TASK}`);

    await Promise.all([late.answer, chunked.answer]);
    // Time for a request that was wrongly taken up to reach the table.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    expect((await apiClient(runtime.baseUrl, runtime.keys.a)('GET', '/tasks')).body.tasks).toEqual([]);
  });

  it('still serves a request that arrives in time on the same settings', async () => {
    const { socket, answer } = open(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

    const { text } = await answer;
    socket.destroy();

    expect(problemOf(text).status).toBe(200);
  });
});
