import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { eventually, startTestRuntime, type ApiResponse, type TestRuntime } from '../../support/local-runtime';
import { authenticatedRoutes, fillPath, pathParams, queryString, requiredQueries, routeKey, signedCallbackRoutes, signedCallbackSamples, validBodies } from '../../support/route-samples';
import { signedHeaders } from '../../support/slack-requests';
import { tableSnapshot } from '../../support/table-snapshot';
import { startTestSite, type TestSite } from '../../support/test-site-server';
import { buildTenantWorld, unknownLike, type TenantWorld } from './tenant-world';

/**
 * OWASP API Security Top 10 (2023), the items about whose data a caller reaches:
 * API1 Broken Object Level Authorization, API3 Broken Object Property Level Authorization and
 * API6 Unrestricted Access to Sensitive Business Flows. See docs/security.md for the whole list.
 * Routes come from functions/routes.ts: a route added later is covered without editing this file.
 */

let runtime: TestRuntime;
let site: TestSite;
let world: TenantWorld;
let tenantA: string;

/** Calls a route of the table as `call`'s tenant, with the route's sample body and required query. */
function callRoute(call: TenantWorld['a'], route: (typeof routes)[number], values: Record<string, string>): Promise<ApiResponse> {
  const path = fillPath(route, values).slice('/v1'.length);
  const query = queryString(requiredQueries[routeKey(route)]?.(values) ?? {});
  return call(route.method, `${path}${query}`, validBodies[routeKey(route)]);
}

const objectRoutes = authenticatedRoutes.filter((route) => pathParams(route).length > 0);
const listRoutes = authenticatedRoutes.filter((route) => route.method === 'GET' && pathParams(route).length === 0 && !route.streaming);

/** Reads a Server-Sent Events stream as `key` until `until` holds for the text so far (or a timeout). */
async function readStream(key: string, headers: Record<string, string>, until: (text: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let text = '';
  try {
    const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${key}`, Accept: 'text/event-stream', ...headers }, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    while (!until(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return text;
}

/** A's identifiers that must never show up in anything B receives (rule ids are catalogue names, not A's). */
function aSecrets(): string[] {
  return [tenantA, world.slack.a.integrationId, ...Object.entries(world.ids).filter(([name]) => name !== 'rule_id').map(([, id]) => id)];
}

/** A signed callback route's sample, signed with `signingSecret`, sent for `integrationId` (no API key: these routes take none). */
async function sendSigned(route: (typeof routes)[number], integrationId: string, signingSecret: string): Promise<ApiResponse> {
  const { contentType, body } = signedCallbackSamples[routeKey(route)];
  const response = await fetch(`http://127.0.0.1:${runtime.port}${fillPath(route, { integration_id: integrationId })}`, { method: route.method, headers: signedHeaders(signingSecret, body, contentType), body, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

/** An answer's body with the given ids replaced by `<id>`, to compare answers about different ids. */
function neutral(body: unknown, idsInIt: string[]): unknown {
  return JSON.parse(idsInIt.reduce((text, id) => text.split(id).join('<id>'), JSON.stringify(body ?? null)));
}

describe('OWASP API1/API3/API6 on the local runtime, tenant A and tenant B', () => {
  beforeAll(async () => {
    site = await startTestSite();
    runtime = await startTestRuntime('owasp-objects');
    world = await buildTenantWorld(runtime, site);
    tenantA = (await world.a('GET', `/tasks/${world.ids.task_id}`)).body.tenant_id;
    // The invitation routes name a tenant that invited the caller: A's own id is the real value to try.
    world.ids.tenant_id = tenantA;
    expect(tenantA).toMatch(/^tenant-a-/);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
    await runtime?.stop();
    await site?.close();
  });

  describe('API1 Broken Object Level Authorization', () => {
    it('the world has a record of tenant A for every path identifier of the route table', () => {
      const names = new Set(objectRoutes.flatMap(pathParams));
      expect([...names].filter((name) => !world.ids[name])).toEqual([]);
    });

    describe("every route with a path identifier: B with A's real id gets what an unknown id gets, and A's data does not change", () => {
      let before: string[];
      beforeAll(async () => {
        before = await tableSnapshot();
      });

      for (const route of objectRoutes) {
        it(routeKey(route), async () => {
          const names = pathParams(route);
          const unknown = Object.fromEntries(names.map((name) => [name, unknownLike(world.ids[name])]));

          const withRealId = await callRoute(world.as('b', route), route, world.ids);
          const withUnknownId = await callRoute(world.as('b', route), route, unknown);

          // The caller's own invitations (/me/…) are no tenant object: B's admin key is refused
          // them (403) alike for A's tenant and an unknown one; every other route answers 404.
          const expected = route.role === 'invitee' ? 403 : 404;
          expect(withRealId.status, JSON.stringify(withRealId.body)).toBe(expected);
          expect(withUnknownId.status).toBe(expected);
          expect(withRealId.headers.get('content-type')).toBe('application/problem+json');
          // Same answer, word for word once the ids are taken out: nothing tells B the id exists.
          const neutral = (response: ApiResponse, values: Record<string, string>) => JSON.parse(Object.values(values).reduce((text, id) => text.split(id).join('<id>'), JSON.stringify(response.body)));
          expect(neutral(withRealId, world.ids)).toEqual(neutral(withUnknownId, unknown));
        });
      }

      it('nothing of A changed: the table is item for item as before the sweep', async () => {
        expect(await tableSnapshot()).toEqual(before);
      });
    });

    for (const route of listRoutes) {
      it(`${routeKey(route)} as B shows none of A's records`, async () => {
        const query = requiredQueries[routeKey(route)];
        const asB = await world.b(route.method, `${route.path}${queryString(query?.(world.ids) ?? {})}`);
        expect(asB.status).toBeLessThan(500);
        // (an id B itself put in the query may be echoed back in the answer)
        const named = Object.values(query?.(world.ids) ?? {});
        const text = JSON.stringify(asB.body);
        for (const secret of aSecrets().filter((id) => !named.includes(id))) expect(text).not.toContain(secret);
        if (query) {
          // naming A's object in the filter answers as if it did not exist
          const unknownIds = Object.fromEntries(Object.entries(world.ids).map(([name, id]) => [name, unknownLike(id)]));
          const unknown = await world.b(route.method, `${route.path}${queryString(query(unknownIds))}`);
          const neutral = (body: unknown, values: Record<string, string>) => Object.values(values).reduce((text, id) => text.split(id).join('<id>'), JSON.stringify(body));
          expect(asB.status).toBe(unknown.status);
          expect(neutral(asB.body, world.ids)).toBe(neutral(unknown.body, unknownIds));
        }
      });
    }

    // The signed callbacks take no API key: the Slack app's signing secret is what names the
    // tenant's integration. So the object-level question is whether another app's secret, B's,
    // opens A's integration; it must be refused exactly as a forged signature is.
    for (const route of signedCallbackRoutes) {
      it(`${routeKey(route)}: A's integration refuses a request signed with B's secret as a forged one; an id that is no Slack integration is 404 as an unknown one`, async () => {
        const before = await tableSnapshot();
        const aSlack = world.slack.a.integrationId;

        const signedByB = await sendSigned(route, aSlack, world.slack.b.signingSecret);
        const forged = await sendSigned(route, aSlack, 'ffffffffffffffffffffffffffffffff');
        const notSlack = await sendSigned(route, world.ids.integration_id, world.slack.a.signingSecret);
        const unknown = await sendSigned(route, unknownLike(aSlack), world.slack.a.signingSecret);
        const bOwn = await sendSigned(route, world.slack.b.integrationId, world.slack.b.signingSecret);

        expect({ status: signedByB.status, type: signedByB.headers.get('content-type'), code: signedByB.body?.code }).toEqual({ status: 401, type: 'application/problem+json', code: 'unauthorized' });
        expect(signedByB.body).toEqual(forged.body);
        expect({ status: notSlack.status, code: notSlack.body?.code }).toEqual({ status: 404, code: 'integration_not_found' });
        expect(neutral(notSlack.body, [world.ids.integration_id])).toEqual(neutral(unknown.body, [unknownLike(aSlack)]));
        // B's secret is a real one: it opens B's own integration, and only that.
        expect(bOwn.status, JSON.stringify(bOwn.body)).toBe(200);
        expect(await tableSnapshot()).toEqual(before);
      });
    }

    it("B naming A's integration in a body (an agent's bindings, a chat trigger) gets what an unknown id gets, and nothing is stored", async () => {
      const before = await tableSnapshot();
      const chatTrigger = (integrationId: string) => ({
        name: 'Chat of B',
        source: { type: 'chat', integration_id: integrationId, channel: 'C0REQUESTS', pattern: '^audit' },
        task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } },
      });
      const cases: [string, string, (id: string) => unknown, string][] = [
        ['PATCH', '/agents/ai-readiness/config', (id) => ({ integrations: { github: id } }), world.ids.integration_id],
        ['POST', '/triggers', chatTrigger, world.slack.a.integrationId],
      ];

      for (const [method, path, body, aId] of cases) {
        const withRealId = await world.b(method, path, body(aId));
        const withUnknownId = await world.b(method, path, body(unknownLike(aId)));

        expect(withRealId.status, `${method} ${path}: ${JSON.stringify(withRealId.body)}`).toBeGreaterThanOrEqual(400);
        expect(withRealId.status).toBeLessThan(500);
        expect(withRealId.status).toBe(withUnknownId.status);
        expect(neutral(withRealId.body, [aId])).toEqual(neutral(withUnknownId.body, [unknownLike(aId)]));
      }
      expect(await tableSnapshot()).toEqual(before);
    });

    it("A's page cursor is refused for B instead of continuing A's listing", async () => {
      const page = await world.a('GET', '/tasks?limit=1');
      expect(page.body.next_cursor).toEqual(expect.any(String));

      const asB = await world.b('GET', `/tasks?limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`);

      expect(asB.status).toBe(400);
      expect(asB.body.code).toBe('invalid_cursor');
    });

    it("GET /events as B, filtered by A's task or not, never lists A's events", async () => {
      const all = await world.b('GET', '/events?limit=500');
      const filtered = await world.b('GET', `/events?task_id=${world.ids.task_id}`);

      expect(all.body.events.length).toBeGreaterThan(0);
      expect(all.body.events.every((event: { tenant_id: string }) => event.tenant_id !== tenantA)).toBe(true);
      expect(filtered.body.events).toEqual([]);
    });

    it("the SSE stream as B, even resumed from A's event id, carries only B's events", async () => {
      const firstOfA = (await world.a('GET', `/events?task_id=${world.ids.task_id}&limit=1`)).body.events[0].event_id;

      const text = await readStream(runtime.keys.b, { 'Last-Event-ID': firstOfA }, (so) => so.includes(world.bTaskId) && so.includes('task.complete'));

      expect(text).toContain(world.bTaskId);
      for (const secret of aSecrets()) expect(text).not.toContain(secret);
    });

    it("B's webhook receives and lists only B's events", async () => {
      const deliveries = (await world.b('GET', `/webhooks/${world.bWebhookId}/deliveries`)).body.deliveries;

      expect(world.received.b.length).toBeGreaterThan(0);
      expect(deliveries.length).toBe(world.received.b.length);
      for (const delivery of world.received.b) {
        expect(JSON.parse(delivery.body).data.task_id).toBe(world.bTaskId);
        for (const secret of aSecrets()) expect(delivery.body).not.toContain(secret);
      }
    });
  });

  describe('API3 Broken Object Property Level Authorization', () => {
    /** Fields only the service sets. */
    const serverOwned: Record<string, unknown> = {
      tenant_id: 'tenant-other',
      status: 'complete',
      created_at: '2000-01-01T00:00:00Z',
      updated_at: '2000-01-01T00:00:00Z',
      completed_at: '2000-01-01T00:00:00Z',
      task_id: 'tsk_forged',
      webhook_id: 'whk_forged',
      project_id: 'prj_forged',
      scan_id: 'scn_forged',
      approval_status: 'approved',
      risk_score: 0,
      secret_ciphertext: 'forged',
      key_hash: 'forged',
      pk: 'TENANT#other',
      sk: 'TASK',
      id: 'forged',
      integration_id: 'int_forged',
      account: { login: 'forged' },
      credentials_ciphertext: 'forged',
      last_used_at: '2000-01-01T00:00:00Z',
      revoked_at: '2000-01-01T00:00:00Z',
    };
    /**
     * Fields a route lets the client set on purpose, with a server-only value that must still be
     * refused. `status` of a webhook is the client's on/off switch; of a finding, dismiss/reopen.
     */
    const clientSettable: Record<string, Record<string, unknown>> = {
      'PATCH /webhooks/{webhook_id}': { status: 'failing' },
      'PATCH /findings/{finding_id}': { status: 'fixed' },
    };
    const writeRoutes = authenticatedRoutes.filter((route) => route.method !== 'GET');

    for (const route of writeRoutes) {
      it(`${routeKey(route)} refuses server-owned fields in the body (mass assignment) and stores nothing`, async () => {
        const before = await tableSnapshot();
        const sample = validBodies[routeKey(route)] ?? {};
        const path = fillPath(route, world.ids).slice('/v1'.length);

        for (const [field, value] of Object.entries(serverOwned)) {
          if (field in sample) continue;
          const forged = clientSettable[routeKey(route)]?.[field] ?? value;
          const response = await world.as('a', route)(route.method, path, { ...sample, [field]: forged });
          expect(response.status, `${field}: ${JSON.stringify(response.body)}`).toBe(400);
          if (!validBodies[routeKey(route)]) expect(response.body.errors).toEqual([{ path: 'body', message: 'this route takes no request body' }]);
        }

        expect(await tableSnapshot()).toEqual(before);
      });
    }

    it('__proto__ and constructor keys are refused at any depth; other keys stay plain data', async () => {
      const before = await tableSnapshot();
      for (const key of ['__proto__', 'constructor']) {
        const polluting = await world.a('POST', '/tasks', `{"agent":"ai-readiness","task_type":"ai_readiness.full_audit","input":{"scope":"full","nested":{"${key}":{"prototype":{"polluted":"yes"}}}}}`);
        expect(polluting.status, key).toBe(400);
        expect(polluting.body.code).toBe('malformed_json');
      }
      expect(await tableSnapshot()).toEqual(before);

      const harmless = await world.a('POST', '/tasks', '{"agent":"ai-readiness","task_type":"ai_readiness.full_audit","input":{"scope":"full","prototype":{"polluted":"yes"}}}');

      expect(harmless.status).toBe(202);
      expect(harmless.body.input).toEqual({ scope: 'full', prototype: { polluted: 'yes' } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      await eventually(async () => (['complete', 'failed'].includes((await world.a('GET', `/tasks/${harmless.body.task_id}`)).body.status) ? true : undefined));
    });

    it('no answer of any route exposes a secret, a key hash, a ciphertext or a storage key', async () => {
      const forbiddenKeys = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'key_hash', 'secret', 'secret_ciphertext', 'previous_secret_ciphertext', 'ciphertext', 'credentials', 'credentials_ciphertext', 'token', 'bot_token', 'signing_secret', 'password']);
      const forbiddenText = [world.webhookSecret, ...world.credentials, runtime.keys.a, runtime.keys.b, world.agentKeys.a, world.agentKeys.b, 'lgcm1.', 'TENANT#'];
      const answers: { label: string; body: unknown }[] = [];
      for (const route of authenticatedRoutes.filter((candidate) => candidate.method === 'GET' && !candidate.streaming)) {
        const response = await callRoute(world.a, route, world.ids);
        expect(response.status, routeKey(route)).toBeLessThan(400);
        answers.push({ label: routeKey(route), body: response.body });
      }
      const rotated = await world.a('POST', `/webhooks/${world.ids.webhook_id}/rotate-secret`, { secret: 'whsec-rotated-world-0123456789', overlap_hours: 0 });
      answers.push({ label: 'rotate-secret', body: rotated.body });
      // The answers that handle integration credentials without being GETs: a connection check and a rename.
      const tested = await world.a('POST', `/integrations/${world.ids.integration_id}/test`);
      expect(tested.body).toMatchObject({ ok: true });
      answers.push({ label: 'integration test', body: tested.body });
      answers.push({ label: 'integration rename', body: (await world.a('PATCH', `/integrations/${world.slack.a.integrationId}`, { name: 'World Slack, renamed' })).body });
      answers.push(...world.received.a.map((delivery) => ({ label: 'webhook payload', body: JSON.parse(delivery.body) })));

      const offending: string[] = [];
      const walk = (label: string, value: unknown, path: string) => {
        if (Array.isArray(value)) value.forEach((item, index) => walk(label, item, `${path}[${index}]`));
        else if (value && typeof value === 'object') {
          for (const [key, child] of Object.entries(value)) {
            if (forbiddenKeys.has(key)) offending.push(`${label}: ${path}.${key}`);
            walk(label, child, `${path}.${key}`);
          }
        }
      };
      for (const { label, body } of answers) {
        walk(label, body, '$');
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        for (const needle of [...forbiddenText, 'whsec-rotated-world']) if (text.includes(needle)) offending.push(`${label}: contains ${needle.slice(0, 12)}…`);
      }
      expect(offending).toEqual([]);
    });
  });

  describe('API6 Unrestricted Access to Sensitive Business Flows', () => {
    it('an outgoing e-mail waits for a human: nothing is sent while the approval is pending', async () => {
      const approval = (await world.a('GET', `/approvals/${world.ids.approval_id}`)).body;

      expect(approval.status).toBe('pending');
      expect(existsSync(join(process.env.GATEHOUSE_OUTBOX_DIR!, `${world.ids.approval_id}.eml`))).toBe(false);
    });

    it('an approver cannot swap the approved action for another kind of action', async () => {
      const response = await world.a('POST', `/approvals/${world.ids.approval_id}/resolve`, { decision: 'approved', modified_action: { type: 'http.request', url: 'https://attacker.example/' } });

      expect(response.status).toBe(400);
      expect((await world.a('GET', `/approvals/${world.ids.approval_id}`)).body.status).toBe('pending');
    });

    it('an approval is decided once: a second decision is 409 and the first stands, and a denied mail is never sent', async () => {
      const denied = await world.a('POST', `/approvals/${world.ids.approval_id}/resolve`, { decision: 'denied', comment: 'no' });
      const again = await world.a('POST', `/approvals/${world.ids.approval_id}/resolve`, { decision: 'approved' });

      expect(denied.status).toBe(200);
      expect(again.status).toBe(409);
      expect(again.headers.get('content-type')).toBe('application/problem+json');
      expect((await world.a('GET', `/approvals/${world.ids.approval_id}`)).body.status).toBe('denied');
      expect(existsSync(join(process.env.GATEHOUSE_OUTBOX_DIR!, `${world.ids.approval_id}.eml`))).toBe(false);
    });
  });
});
