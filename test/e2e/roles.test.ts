import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { fillPath, queryString, requiredQueries, routeKey, validBodies } from '../support/route-samples';

type Client = ReturnType<typeof apiClient>;

let runtime: TestRuntime;
let admin: Client;
let adminKeyId: string;
const keys: Record<'viewer' | 'operator' | 'approver', { key: string; keyId: string; call: Client }> = {} as never;

const draftTask = {
  agent: 'sales',
  task_type: 'sales.draft_email',
  input: { lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' }, product: { name: 'Gatehouse', value_proposition: 'A human in the loop.' }, tone: 'concise' },
};

/** A draft_email task parked on its approval, started by the admin key. */
async function pendingApproval(): Promise<string> {
  const { body: task } = await admin('POST', '/tasks', draftTask);
  await eventually(async () => ((await admin('GET', `/tasks/${task.task_id}`)).body.status === 'awaiting_approval' ? true : undefined), 30_000, 200);
  return (await admin('GET', `/approvals?task_id=${task.task_id}`)).body.approvals[0].approval_id;
}

const ids = { agent_id: 'agt_x', task_id: 'tsk_x', artifact_id: 'art_x', approval_id: 'apr_x', webhook_id: 'whk_x', delivery_id: 'dlv_x', project_id: 'prj_x', scan_id: 'scn_x', finding_id: 'fnd_x', rule_id: 'rule_x', key_id: 'key_x', user_id: 'usr_x', tenant_id: 'tenant-x', session_id: 'ses_x', trigger_id: 'trg_x', integration_id: 'int_x' };
const callable = routes.filter((route) => route.role && !route.streaming);

describe('roles over HTTP', () => {
  beforeAll(async () => {
    // No authorizer cache: a revoked key is refused at once (the cache's delay has its own test).
    runtime = await startTestRuntime('roles', { authorizerCacheSeconds: 0 });
    admin = apiClient(runtime.baseUrl, runtime.keys.a);
    adminKeyId = (await admin('GET', '/me')).body.principal.id;
    await admin('POST', '/agents/deploy', { agent_slug: 'sales' });
    for (const role of ['viewer', 'operator', 'approver'] as const) {
      const { status, body } = await admin('POST', '/api-keys', { name: `${role} key`, role });
      expect(status).toBe(201);
      keys[role] = { key: body.key, keyId: body.key_id, call: apiClient(runtime.baseUrl, body.key) };
    }
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('tells each key who it is', async () => {
    expect((await admin('GET', '/me')).body).toEqual({ principal: { type: 'api_key', id: adminKeyId }, tenant_id: expect.stringMatching(/^tenant-a-/), role: 'admin' });
    expect((await keys.viewer.call('GET', '/me')).body).toMatchObject({ principal: { type: 'api_key', id: keys.viewer.keyId }, role: 'viewer' });
  });

  it('refuses a viewer every route above viewer with 403 forbidden, and lets it reach every read', async () => {
    for (const route of callable) {
      // fillPath adds the version; the client's base URL has it already.
      const path = fillPath(route, ids).replace(/^\/v1/, '') + queryString(requiredQueries[routeKey(route)]?.(ids) ?? {});
      const { status, body, headers } = await keys.viewer.call(route.method, path, validBodies[routeKey(route)]);
      // Invitations belong to people: a key reads its (empty) list, and answering one is 403 for any key.
      if (route.role === 'viewer' || (route.role === 'invitee' && route.method === 'GET')) {
        expect(status, routeKey(route)).not.toBe(403);
      } else {
        expect({ route: routeKey(route), status, code: body?.code }).toEqual({ route: routeKey(route), status: 403, code: 'forbidden' });
        expect(headers.get('content-type')).toMatch(/application\/problem\+json/);
      }
    }
    for (const path of ['/agents', '/tasks', '/approvals', '/webhooks', '/integrations', '/projects', '/events', '/settings/retention', '/me']) {
      expect((await keys.viewer.call('GET', path)).status, path).toBe(200);
    }
  });

  it('lets an operator run tasks but not resolve approvals or make keys; an approver the reverse', async () => {
    const approvalId = await pendingApproval();
    expect((await keys.operator.call('POST', '/tasks', draftTask)).status).toBe(202);
    expect((await keys.operator.call('POST', `/approvals/${approvalId}/resolve`, { decision: 'denied' })).body.code).toBe('forbidden');
    // An operator may not make keys at all, so not an admin key above its own role either.
    expect((await keys.operator.call('POST', '/api-keys', { name: 'escalate', role: 'admin' })).status).toBe(403);
    expect((await keys.operator.call('POST', '/api-keys', { name: 'same', role: 'operator' })).status).toBe(403);
    expect((await keys.approver.call('POST', '/tasks', draftTask)).body.code).toBe('forbidden');

    const resolved = await keys.approver.call('POST', `/approvals/${approvalId}/resolve`, { decision: 'denied', comment: 'not now' });

    expect(resolved.status).toBe(200);
    // The key's name as it was when deciding, for people reading the record.
    const by = { type: 'api_key', id: keys.approver.keyId, name: 'approver key' };
    expect(resolved.body.resolved_by).toEqual(by);
    expect((await admin('GET', `/approvals/${approvalId}`)).body).toMatchObject({ status: 'denied', resolved_by: by });
    const events = (await admin('GET', `/events?type=approval.resolved`)).body.events.filter((event: any) => event.approval_id === approvalId);
    expect(events.map((event: any) => event.data.resolved_by)).toEqual([by]);
  });

  it('makes a key that works at once, lists it without its secret, and refuses it once revoked', async () => {
    const created = await admin('POST', '/api-keys', { name: 'ci deploys', role: 'operator' });
    expect(created).toMatchObject({ status: 201, body: { name: 'ci deploys', role: 'operator', created_by: { type: 'api_key', id: adminKeyId }, last_used_at: null, key: expect.stringMatching(/^gh_live_/) } });
    const { key, key_id: keyId } = created.body;
    const call = apiClient(runtime.baseUrl, key);
    expect((await call('GET', '/me')).body.principal.id).toBe(keyId);

    const listed = await admin('GET', '/api-keys?limit=100');
    expect(listed.body.api_keys.find((record: any) => record.key_id === keyId)).toEqual({ key_id: keyId, name: 'ci deploys', role: 'operator', granted_role: 'operator', capped: false, suspended: false, bound_to: null, display_prefix: `${key.slice(0, 12)}…`, created_at: created.body.created_at, created_by: { type: 'api_key', id: adminKeyId }, last_used_at: expect.any(String) });
    expect(JSON.stringify(listed.body)).not.toContain(key);
    // Another tenant sees none of them and cannot revoke them.
    const b = apiClient(runtime.baseUrl, runtime.keys.b);
    expect((await b('GET', '/api-keys')).body.api_keys.map((record: any) => record.key_id)).not.toContain(keyId);
    expect((await b('DELETE', `/api-keys/${keyId}`)).body.code).toBe('api_key_not_found');

    expect((await admin('DELETE', `/api-keys/${keyId}`)).status).toBe(204);

    expect((await call('GET', '/me')).status).toBe(401);
    expect((await admin('DELETE', `/api-keys/${keyId}`)).status).toBe(204);
    expect((await admin('GET', '/api-keys?limit=100')).body.api_keys.find((record: any) => record.key_id === keyId).revoked_at).toEqual(expect.any(String));
    const events = (await admin('GET', '/events?type=api_key.created,api_key.revoked')).body.events.filter((event: any) => event.data.key_id === keyId);
    expect(events.map((event: any) => [event.type, event.data])).toEqual([
      ['api_key.created', { key_id: keyId, name: 'ci deploys', role: 'operator', principal: { type: 'api_key', id: adminKeyId } }],
      ['api_key.revoked', { key_id: keyId, name: 'ci deploys', role: 'operator', principal: { type: 'api_key', id: adminKeyId } }],
    ]);
  });

  it('replays a POST /api-keys with the same Idempotency-Key without the key, which is never stored', async () => {
    const headers = { 'Idempotency-Key': `roles-${Date.now()}` };
    const first = await admin('POST', '/api-keys', { name: 'replayed', role: 'viewer' }, headers);
    const again = await admin('POST', '/api-keys', { name: 'replayed', role: 'viewer' }, headers);

    expect(first.body.key).toEqual(expect.any(String));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, key: undefined });
    expect(JSON.stringify(again.body)).not.toContain(first.body.key);
  });

  it('refuses a name that is missing or a role that does not exist', async () => {
    expect((await admin('POST', '/api-keys', { role: 'viewer' })).body.code).toBe('validation_error');
    expect((await admin('POST', '/api-keys', { name: 'x', role: 'owner' })).body.code).toBe('validation_error');
  });

  it('records who changed the retention', async () => {
    expect((await keys.operator.call('PATCH', '/settings/retention', { retention_days: 30 })).status).toBe(403);
    expect((await admin('PATCH', '/settings/retention', { retention_days: 30 })).status).toBe(200);

    const events = (await admin('GET', '/events?type=settings.retention_changed')).body.events;
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ retention_days: 30, principal: { type: 'api_key', id: adminKeyId } });
  });
});
