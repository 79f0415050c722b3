import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let taskId: string;

describe('GET /events over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('events');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
    taskId = (await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } })).body.task_id;
    await eventually(async () => ((await a('GET', `/tasks/${taskId}`)).body.status === 'complete' ? true : undefined));
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it("lists a task's events oldest first, each as the stored record", async () => {
    const { status, body } = await a('GET', `/events?task_id=${taskId}`);
    expect(status).toBe(200);
    const types = body.events.map((event: { type: string }) => event.type);
    expect(types[0]).toBe('task.created');
    expect(types.at(-1)).toBe('task.complete');
    expect(types.filter((type: string) => type === 'artifact.emitted')).toHaveLength(2);
    expect(body.events[0]).toMatchObject({ event_id: expect.stringMatching(/^evt_/), type: 'task.created', tenant_id: expect.any(String), task_id: taskId, agent: 'ai-readiness-agent', data: { task_id: taskId } });
    const complete = body.events.at(-1);
    expect(complete.data).toEqual({ task_id: taskId, artifact_count: 2 });
    const progress = body.events.find((event: { type: string }) => event.type === 'task.progress');
    expect(progress.data).toEqual({ task_id: taskId, message: expect.any(String), progress: expect.any(Number) });
    expect(body.next_cursor).toBeNull();
  });

  it('pages with a cursor and filters by type and agent', async () => {
    const all = (await a('GET', '/events?limit=500')).body.events.map((event: { event_id: string }) => event.event_id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const { body }: { body: { events: { event_id: string }[]; next_cursor: string | null } } = await a('GET', `/events?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      paged.push(...body.events.map((event) => event.event_id));
      cursor = body.next_cursor;
    } while (cursor && paged.length < 1000);
    expect(paged).toEqual(all);

    const artifacts = (await a('GET', '/events?type=artifact.emitted,task.complete&agent=ai-readiness')).body.events;
    expect(artifacts.map((event: { type: string }) => event.type).sort()).toEqual(['artifact.emitted', 'artifact.emitted', 'task.complete']);
    expect((await a('GET', '/events?agent=sales')).body.events).toEqual([]);
  });

  it('keeps to an after/before window', async () => {
    const events = (await a('GET', `/events?task_id=${taskId}`)).body.events;
    const window = await a('GET', `/events?after=${encodeURIComponent(events[0].created_at)}&before=${encodeURIComponent(events.at(-1).created_at)}`);
    for (const event of window.body.events) {
      expect(event.created_at > events[0].created_at && event.created_at < events.at(-1).created_at).toBe(true);
    }
  });

  it('never shows one tenant the events of another', async () => {
    expect((await b('GET', '/events')).body.events).toEqual([]);
    expect((await b('GET', `/events?task_id=${taskId}`)).body.events).toEqual([]);
  });

  it.each([
    ['limit=501', 'query.limit'],
    ['type=task.exploded', 'query.type'],
    ['after=yesterday', 'query.after'],
    ['after=2026-02-01T00:00:00Z&before=2026-01-01T00:00:00Z', 'query.after'],
  ])('rejects %s with a 400 naming %s', async (query, path) => {
    const response = await a('GET', `/events?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.errors.some((error: { path: string }) => error.path.startsWith(path))).toBe(true);
  });
});
