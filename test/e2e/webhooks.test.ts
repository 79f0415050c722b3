import { verify as verifyGithubSignature } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { standardWebhooksVerifierSecret } from '#shared/domain/webhook-signature';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { startReceiver } from '../support/webhook-receiver';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
const cleanups: (() => Promise<unknown>)[] = [];
const secret = 'whsec-test-secret-0123456789';

async function runTask(call = a): Promise<string> {
  const { body } = await call('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
  return body.task_id;
}

async function subscribe(url: string, events: string[] = ['task.complete'], call = a) {
  const { status, body } = await call('POST', '/webhooks', { url, events, secret });
  expect(status).toBe(201);
  cleanups.push(() => call('DELETE', `/webhooks/${body.webhook_id}`));
  return body;
}

describe('webhooks end to end with loopback receivers', () => {
  beforeAll(async () => {
    // Retries at once and a short attempt timeout, so the tests need not wait out real backoff.
    process.env.WEBHOOK_RETRY_SCALE_PERCENT = '0';
    process.env.WEBHOOK_TIMEOUT_MS = '500';
    runtime = await startTestRuntime('webhooks');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
    await b('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('creates, reads, lists and deletes a subscription without ever returning the secret', async () => {
    const receiver = await startReceiver(() => 204);
    cleanups.push(receiver.close);
    const created = await subscribe(receiver.url, ['task.complete', 'task.failed']);

    expect(created).toMatchObject({ webhook_id: expect.stringMatching(/^whk_/), url: receiver.url, events: ['task.complete', 'task.failed'], status: 'enabled', created_at: expect.any(String) });
    expect(JSON.stringify(created)).not.toContain(secret);
    const read = await a('GET', `/webhooks/${created.webhook_id}`);
    expect(read.body).toEqual(created);
    expect((await a('GET', '/webhooks')).body.webhooks.map((webhook: { webhook_id: string }) => webhook.webhook_id)).toContain(created.webhook_id);
    expect((await b('GET', `/webhooks/${created.webhook_id}`)).status).toBe(404);
    expect((await b('GET', `/webhooks/${created.webhook_id}/deliveries`)).status).toBe(404);
    expect((await b('DELETE', `/webhooks/${created.webhook_id}`)).status).toBe(404);
  });

  it('delivers a task with a large input whole: the same signed bytes on every attempt, the input as it was sent', async () => {
    const receiver = await startReceiver((request) => (request === 1 ? 500 : 200));
    cleanups.push(receiver.close);
    await subscribe(receiver.url);
    // About 40 KB: the task keeps its input in an item of its own, the delivery its body.
    const input = {
      scope: 'full',
      systems: Array.from({ length: 25 }, (_, index) => ({ id: `system-${index}`, name: `System ${index}`, category: 'chatbot', purpose: 'Answers customer questions about orders and refunds. '.repeat(30) })),
    };
    const created = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input });
    expect(created.status).toBe(202);
    expect((await a('GET', `/tasks/${created.body.task_id}`)).body.input).toEqual(input);

    await eventually(async () => (receiver.received.length >= 2 ? true : undefined));
    const [first, second] = receiver.received;
    expect(second.body).toBe(first.body);
    expect(Buffer.byteLength(second.body)).toBeGreaterThan(30 * 1024);
    const payload = JSON.parse(second.body);
    expect(payload.data.task).toMatchObject({ task_id: created.body.task_id, status: 'complete', input });
    expect(await verifyGithubSignature(secret, second.body, String(second.headers['x-service-signature']))).toBe(true);
    expect((await a('GET', '/tasks')).body.tasks.find((task: { task_id: string }) => task.task_id === created.body.task_id).input).toEqual(input);
  });

  it('retries a failing receiver until it succeeds; both signatures verify with real libraries; the log shows every attempt', async () => {
    const receiver = await startReceiver((request) => (request === 1 ? 500 : 200));
    cleanups.push(receiver.close);
    const webhook = await subscribe(receiver.url);

    const taskId = await runTask();

    await eventually(async () => (receiver.received.length >= 2 ? true : undefined));
    const [first, second] = receiver.received;
    expect(second.headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);
    expect(second.body).toBe(first.body);
    const payload = JSON.parse(second.body);
    expect(payload).toMatchObject({ id: second.headers['x-service-delivery'], type: 'task.complete', data: { task_id: taskId, artifact_count: 2, task: { task_id: taskId, status: 'complete' } } });
    expect(payload.data.task.artifacts).toHaveLength(2);
    expect(second.headers['x-service-event']).toBe('task.complete');
    expect(await verifyGithubSignature(secret, second.body, String(second.headers['x-service-signature']))).toBe(true);
    const standard = new StandardWebhook(standardWebhooksVerifierSecret(secret));
    expect(() => standard.verify(second.body, { 'webhook-id': String(second.headers['webhook-id']), 'webhook-timestamp': String(second.headers['webhook-timestamp']), 'webhook-signature': String(second.headers['webhook-signature']) })).not.toThrow();

    const deliveries = await eventually(async () => {
      const { body } = await a('GET', `/webhooks/${webhook.webhook_id}/deliveries`);
      return body.deliveries[0]?.status === 'succeeded' ? body.deliveries : undefined;
    });
    expect(deliveries[0]).toMatchObject({ delivery_id: payload.id, event_type: 'task.complete', status: 'succeeded', attempt_count: 2 });
    expect(deliveries[0].attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 200]);
    expect(deliveries[0].attempts[0]).toMatchObject({ ok: false, latency_ms: expect.any(Number), at: expect.any(String) });
  });

  it('shows one delivery with the request as sent and the start of each response, to its tenant only', async () => {
    const receiver = await startReceiver((request) => (request === 1 ? { status: 500, body: `boom ${'x'.repeat(5 * 1024)}` } : 200));
    cleanups.push(receiver.close);
    const webhook = await subscribe(receiver.url);
    await runTask();
    const listed = await eventually(async () => {
      const { body } = await a('GET', `/webhooks/${webhook.webhook_id}/deliveries`);
      return body.deliveries[0]?.status === 'succeeded' ? body.deliveries[0] : undefined;
    });

    const { status, body: detail } = await a('GET', `/webhooks/${webhook.webhook_id}/deliveries/${listed.delivery_id}`);

    expect(status).toBe(200);
    const sent = receiver.received[1];
    expect(detail).toMatchObject({ delivery_id: listed.delivery_id, status: 'succeeded', attempt_count: 2, request: { method: 'POST', url: receiver.url, attempt: 2, body: sent.body } });
    for (const name of ['X-Service-Signature', 'X-Service-Timestamp', 'webhook-signature', 'webhook-timestamp', 'X-Service-Delivery']) expect(detail.request.headers[name]).toBe(sent.headers[name.toLowerCase()]);
    expect(await verifyGithubSignature(secret, detail.request.body, detail.request.headers['X-Service-Signature'])).toBe(true);
    expect(JSON.stringify(detail)).not.toContain(secret);
    expect(detail.attempts[0].response).toEqual({ status_code: 500, content_type: 'text/plain', body: `boom ${'x'.repeat(1024 - 5)}`, truncated: true });
    expect(detail.attempts[1].response).toEqual({ status_code: 200, content_type: 'text/plain', body: 'ok', truncated: false });
    expect(listed.attempts[0].response).toBeUndefined();
    expect((await b('GET', `/webhooks/${webhook.webhook_id}/deliveries/${listed.delivery_id}`)).body.code).toBe('webhook_not_found');
    expect((await a('GET', `/webhooks/${webhook.webhook_id}/deliveries/evt_unknown`)).body.code).toBe('delivery_not_found');
  });

  it('keeps retrying a receiver that never answers, logging each timeout', async () => {
    const receiver = await startReceiver(() => 'silence');
    cleanups.push(receiver.close);
    const webhook = await subscribe(receiver.url);

    await runTask();

    const delivery = await eventually(async () => {
      const { body } = await a('GET', `/webhooks/${webhook.webhook_id}/deliveries`);
      return body.deliveries[0]?.attempt_count >= 2 ? body.deliveries[0] : undefined;
    }, 20_000);
    expect(delivery.status).toMatch(/retrying|pending/);
    expect(delivery.attempts[0]).toMatchObject({ ok: false, error: expect.stringMatching(/time/i) });
    expect(delivery.attempts[0].status_code).toBeUndefined();
  });

  it('disables an endpoint that answers 410 Gone; PATCH re-enables it', async () => {
    const receiver = await startReceiver(() => 410);
    cleanups.push(receiver.close);
    const webhook = await subscribe(receiver.url);

    await runTask();

    const disabled = await eventually(async () => {
      const { body } = await a('GET', `/webhooks/${webhook.webhook_id}`);
      return body.status === 'disabled' ? body : undefined;
    });
    expect(disabled.disabled_reason).toBe('gone');
    const enabled = await a('PATCH', `/webhooks/${webhook.webhook_id}`, { status: 'enabled' });
    expect(enabled.body).toMatchObject({ status: 'enabled' });
    expect(enabled.body.disabled_reason).toBeUndefined();
  });

  it('signs with both secrets during a rotation overlap', async () => {
    const receiver = await startReceiver(() => 200);
    cleanups.push(receiver.close);
    const webhook = await subscribe(receiver.url);
    const rotated = await a('POST', `/webhooks/${webhook.webhook_id}/rotate-secret`, { secret: 'whsec-the-new-secret-98765', overlap_hours: 1 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.previous_secret_expires_at).toBeTruthy();

    await runTask();

    await eventually(async () => (receiver.received.length >= 1 ? true : undefined));
    const delivery = receiver.received[0];
    const headers = { 'webhook-id': String(delivery.headers['webhook-id']), 'webhook-timestamp': String(delivery.headers['webhook-timestamp']), 'webhook-signature': String(delivery.headers['webhook-signature']) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const candidate of [secret, 'whsec-the-new-secret-98765']) {
      expect(() => new StandardWebhook(standardWebhooksVerifierSecret(candidate)).verify(delivery.body, headers)).not.toThrow();
    }
    expect(await verifyGithubSignature('whsec-the-new-secret-98765', delivery.body, String(delivery.headers['x-service-signature']))).toBe(true);
  });

  it('resends one delivery and recovers failed ones since a time', async () => {
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 410));
    cleanups.push(receiver.close);
    const webhook = await subscribe(receiver.url);
    const since = new Date(Date.now() - 1000).toISOString();
    await runTask();
    const failed = await eventually(async () => {
      const { body } = await a('GET', `/webhooks/${webhook.webhook_id}/deliveries?status=failed`);
      return body.deliveries[0];
    });
    healthy = true;
    await a('PATCH', `/webhooks/${webhook.webhook_id}`, { status: 'enabled' });

    const resent = await a('POST', `/webhooks/${webhook.webhook_id}/deliveries/${failed.delivery_id}/resend`);
    expect(resent.status).toBe(202);
    await eventually(async () => ((await a('GET', `/webhooks/${webhook.webhook_id}/deliveries`)).body.deliveries[0].status === 'succeeded' ? true : undefined));

    const recovered = await a('POST', `/webhooks/${webhook.webhook_id}/recover`, { since });
    expect(recovered).toMatchObject({ status: 202, body: { queued: 0 } });
    expect((await a('POST', `/webhooks/${webhook.webhook_id}/deliveries/evt_unknown/resend`)).status).toBe(404);
  });

  it("never delivers one tenant's events to another tenant's webhook", async () => {
    const receiverA = await startReceiver(() => 200);
    const receiverB = await startReceiver(() => 200);
    cleanups.push(receiverA.close, receiverB.close);
    await subscribe(receiverA.url);
    await subscribe(receiverB.url, ['task.complete'], b);

    const taskOfA = await runTask(a);

    await eventually(async () => (receiverA.received.length >= 1 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiverB.received.filter((delivery) => delivery.body.includes(taskOfA))).toEqual([]);
  });

  it.each([
    [{ url: 'ftp://example.com/x', events: ['task.complete'], secret }, 'body.url'],
    [{ url: 'http://169.254.169.254/latest', events: ['task.complete'], secret }, 'body.url'],
    [{ url: 'http://127.0.0.1:9/x', events: ['task.exploded'], secret }, 'body.events.0'],
    [{ url: 'http://127.0.0.1:9/x', events: ['task.complete'], secret: 'short' }, 'body.secret'],
  ])('rejects %j with 400 naming %s', async (body, path) => {
    const response = await a('POST', '/webhooks', body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });
});
