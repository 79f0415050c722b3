import { EventSource } from 'eventsource';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { rawClient } from '../support/raw-http';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
const sources: EventSource[] = [];

interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** A real EventSource client with the API key, recording every frame it receives. */
function open(key: string, query = ''): { source: EventSource; received: Received[]; opened: () => number } {
  let opens = 0;
  const received: Received[] = [];
  const source = new EventSource(`${runtime.baseUrl}/events/stream${query}`, {
    fetch: (input, init) => {
      // Keep the client's own headers (Accept, Last-Event-ID on reconnect) and add the key.
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${key}`);
      return fetch(input, { ...init, headers });
    },
  });
  source.onopen = () => opens++;
  for (const type of ['task.created', 'task.started', 'task.progress', 'artifact.emitted', 'task.complete', 'task.failed', 'task.cancelled']) {
    source.addEventListener(type, (message) => received.push({ id: message.lastEventId, type, data: JSON.parse(message.data) }));
  }
  sources.push(source);
  return { source, received, opened: () => opens };
}

/** Reads a raw stream until `until` holds or it ends, whichever first; bounded by the caller's signal. */
async function readUntil(response: Response, until: (text: string) => boolean): Promise<{ text: string; ended: boolean }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { text, ended: true };
    text += decoder.decode(value, { stream: true });
    if (until(text)) {
      // Whatever follows the frame waited for: the stream must end right after it.
      const rest = await reader.read();
      if (rest.done) return { text, ended: true };
      text += decoder.decode(rest.value, { stream: true });
      await reader.cancel();
      return { text, ended: false };
    }
  }
}

/** The data of the stream's `event: error` frames, parsed. */
function errorFrames(text: string): Record<string, unknown>[] {
  return [...text.matchAll(/^event: error\ndata: (.+)$/gm)].map((match) => JSON.parse(match[1]) as Record<string, unknown>);
}

async function runTask(): Promise<string> {
  const { body } = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
  await eventually(async () => ((await a('GET', `/tasks/${body.task_id}`)).body.status === 'complete' ? true : undefined));
  return body.task_id;
}

describe('GET /events/stream (SSE) with a real EventSource client', () => {
  beforeAll(async () => {
    process.env.STREAM_POLL_MILLISECONDS = '100';
    runtime = await startTestRuntime('stream');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
  });

  afterEach(() => {
    for (const source of sources.splice(0)) source.close();
    delete process.env.STREAM_MAX_SECONDS;
    delete process.env.STREAM_HEARTBEAT_SECONDS;
    delete process.env.STREAM_RECHECK_SECONDS;
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it("streams a task's events in order, with ids and the documented data shapes", async () => {
    const { received, opened } = open(runtime.keys.a);
    await eventually(async () => (opened() > 0 ? true : undefined));

    const taskId = await runTask();

    const frames = await eventually(async () => {
      const mine = received.filter((frame) => frame.data.task_id === taskId);
      return mine.some((frame) => frame.type === 'task.complete') ? mine : undefined;
    });
    const logged = (await a('GET', `/events?task_id=${taskId}`)).body.events;
    expect(frames.map((frame) => frame.id)).toEqual(logged.map((event: { event_id: string }) => event.event_id));
    expect(frames.find((frame) => frame.type === 'task.progress')?.data).toEqual({ task_id: taskId, message: expect.any(String), progress: expect.any(Number) });
    expect(frames.find((frame) => frame.type === 'artifact.emitted')?.data).toEqual({ task_id: taskId, artifact_id: expect.stringMatching(/^art_/), type: expect.any(String) });
    expect(frames.at(-1)).toMatchObject({ type: 'task.complete', data: { task_id: taskId, artifact_count: 2 } });
  });

  it('closes before its deadline and resumes with Last-Event-ID: nothing lost, nothing repeated', async () => {
    process.env.STREAM_MAX_SECONDS = '1';
    const { received, opened } = open(runtime.keys.a);
    await eventually(async () => (opened() > 0 ? true : undefined));

    const taskIds = [await runTask(), await runTask(), await runTask()];

    await eventually(async () => (received.filter((frame) => frame.type === 'task.complete' && taskIds.includes(frame.data.task_id as string)).length === 3 ? true : undefined), 20_000);
    expect(opened()).toBeGreaterThan(1);
    const ids = received.map((frame) => frame.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
    for (const taskId of taskIds) {
      const logged = (await a('GET', `/events?task_id=${taskId}`)).body.events.map((event: { event_id: string }) => event.event_id);
      expect(received.filter((frame) => frame.data.task_id === taskId).map((frame) => frame.id)).toEqual(logged);
    }
  });

  it('filters by task and type', async () => {
    const first = await runTask();
    const { received, opened } = open(runtime.keys.a, '?types=task.complete,artifact.emitted');
    await eventually(async () => (opened() > 0 ? true : undefined));
    const second = await runTask();

    await eventually(async () => (received.some((frame) => frame.type === 'task.complete') ? true : undefined));
    expect(received.map((frame) => frame.type).sort()).toEqual(['artifact.emitted', 'artifact.emitted', 'task.complete']);
    expect(received.every((frame) => frame.data.task_id === second && frame.data.task_id !== first)).toBe(true);
  });

  it('resumes from a Last-Event-ID given by the client', async () => {
    const taskId = await runTask();
    const logged = (await a('GET', `/events?task_id=${taskId}`)).body.events;
    const response = await fetch(`${runtime.baseUrl}/events/stream?task_id=${taskId}`, {
      headers: { Authorization: `Bearer ${runtime.keys.a}`, Accept: 'text/event-stream', 'Last-Event-ID': logged[1].event_id },
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(logged.at(-1).event_id)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const ids = [...text.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);
    expect(ids).toEqual(logged.slice(2).map((event: { event_id: string }) => event.event_id));
  });

  it('sends heartbeat comments while idle', async () => {
    process.env.STREAM_HEARTBEAT_SECONDS = '1';
    const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${runtime.keys.a}` }, signal: AbortSignal.timeout(10_000) });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(text).toMatch(/^retry: \d+/);
  });

  it('refuses a bad query, a bad Last-Event-ID and a non-SSE Accept with problem+json, after counting the request', async () => {
    const ask = (query: string, headers: Record<string, string>) => fetch(`${runtime.baseUrl}/events/stream${query}`, { headers: { Authorization: `Bearer ${runtime.keys.a}`, ...headers }, signal: AbortSignal.timeout(5_000) });
    const cases: [string, Record<string, string>, number, string, string[]][] = [
      ['?types=nope', {}, 400, 'validation_error', ['query.types.0']],
      ['', { 'Last-Event-ID': 'evt_1' }, 400, 'validation_error', ['headers.last-event-id']],
      ['?last_event_id=nope', {}, 400, 'validation_error', ['query.last_event_id']],
      ['', { Accept: 'application/json' }, 406, 'not_acceptable', []],
    ];

    for (const [query, headers, status, code, paths] of cases) {
      const response = await ask(query, headers);
      expect(response.status, query).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
      const problem = (await response.json()) as { code: string; type: string; errors?: { path: string }[] };
      expect(problem.code).toBe(code);
      expect(problem.type).toBe(`/v1/problems/${code.replace(/_/g, '-')}`);
      expect((problem.errors ?? []).map((error) => error.path)).toEqual(paths);
    }
  });

  it('refuses a request body, as every route that takes none does, and accepts an empty one', async () => {
    const raw = rawClient(new URL(runtime.baseUrl).origin);
    const path = `${new URL(runtime.baseUrl).pathname}/events/stream`;
    const headers = { Authorization: `Bearer ${runtime.keys.a}`, 'Content-Type': 'application/json' };
    const refused = await raw.send({ method: 'GET', path, headers, body: '{"types":["task.created"]}' });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'validation_error', errors: [{ path: 'body' }] });
    const accepted = await raw.send({ method: 'GET', path, headers, body: '{}' });
    expect(accepted.status).toBe(200);
    raw.close();
  });

  it('answers a missing key with 401 problem+json and shows a tenant none of the others’ events', async () => {
    const anonymous = await fetch(`${runtime.baseUrl}/events/stream`, { signal: AbortSignal.timeout(5_000) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/problem+json');
    expect(((await anonymous.json()) as { code: string }).code).toBe('unauthorized');
    const invalid = await fetch(`${runtime.baseUrl}/events/stream?types=nope`, { headers: { Authorization: `Bearer ${runtime.keys.a}` }, signal: AbortSignal.timeout(5_000) });
    expect(invalid.status).toBe(400);

    const other = open(runtime.keys.b);
    await eventually(async () => (other.opened() > 0 ? true : undefined));
    await runTask();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(other.received).toEqual([]);
  });

  it('closes the stream of a revoked key with a final event: error frame (401 problem) at the next re-check, not minutes later', async () => {
    // Issue 25, point 5: a key revoked with DELETE /api-keys/{key_id} kept its open stream
    // delivering for up to 14 minutes. A short re-check interval keeps the test's bounded wait small.
    process.env.STREAM_RECHECK_SECONDS = '1';
    const { body: created } = await a('POST', '/api-keys', { name: 'stream reader', role: 'viewer' });
    const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${created.key}`, Accept: 'text/event-stream' }, signal: AbortSignal.timeout(15_000) });
    expect(response.status).toBe(200);

    expect((await a('DELETE', `/api-keys/${created.key_id}`)).status).toBe(204);
    const { text, ended } = await readUntil(response, (received) => received.includes('event: error'));

    expect(ended).toBe(true);
    expect(errorFrames(text)).toEqual([{ type: '/v1/problems/unauthorized', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'The API key is unknown or revoked.' }]);
    // The frame carries the position reached, so a client signed in again resumes without a gap.
    expect(text).toMatch(/^id: evt_[0-9a-hjkmnp-tv-z]{26}\nevent: error\n/m);
  });

  it('keeps the stream of a key that stays valid open across re-checks', async () => {
    process.env.STREAM_RECHECK_SECONDS = '1';
    process.env.STREAM_HEARTBEAT_SECONDS = '1';
    const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${runtime.keys.a}` }, signal: AbortSignal.timeout(15_000) });

    // Three heartbeats a second apart: at least two re-checks ran, and both let the key read on.
    const { text, ended } = await readUntil(response, (received) => received.split(': heartbeat').length > 3);

    expect(ended).toBe(false);
    expect(errorFrames(text)).toEqual([]);
  });
});
