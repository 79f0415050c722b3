import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalUser } from '#lib/local/oidc/local-users';
import { createApiKey } from '#shared/services/api-keys';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signIn } from '../support/sign-in';

/**
 * `npm start`'s sign-in on one origin: the embedded provider under `/oidc`, its tokens accepted by
 * the API (the authorizer's routes and the streaming route alike), and the dev user when no users
 * are configured.
 */
const tenant = `people-${randomBytes(3).toString('hex')}`;
let runtime: TestRuntime;

describe('signing in to the local runtime', () => {
  beforeAll(async () => {
    const users: LocalUser[] = [
      { email: 'ada@example.com', password: 'ada-secret', tenantId: tenant, role: 'approver' },
      { email: 'ben@example.com', password: 'ben-secret', tenantId: tenant, role: 'viewer' },
    ];
    runtime = await startTestRuntime('oidc', { workers: false, users });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('serves the provider under /oidc on the API’s origin, and tells the API its issuer', async () => {
    const discovery = await (await fetch(`${runtime.oidcIssuer}/.well-known/openid-configuration`)).json();

    expect(runtime.oidcIssuer).toBe(`http://127.0.0.1:${runtime.port}/oidc`);
    expect(discovery).toMatchObject({ issuer: runtime.oidcIssuer, code_challenge_methods_supported: ['S256'], userinfo_endpoint: `${runtime.oidcIssuer}/me` });
    expect(runtime.devUser).toBeUndefined();
  });

  it('lets a configured person sign in and call the API as themselves', async () => {
    const token = await signIn(runtime.baseUrl, 'ada@example.com', 'ada-secret');

    const me = await apiClient(runtime.baseUrl, token)('GET', '/me');

    expect(me.status).toBe(200);
    expect(me.body).toEqual({ principal: { type: 'user', id: expect.stringMatching(/^usr_/), email: 'ada@example.com' }, tenant_id: tenant, role: 'approver' });
  });

  it('accepts the token on the event stream too', async () => {
    const token = await signIn(runtime.baseUrl, 'ada@example.com', 'ada-secret');
    const controller = new AbortController();

    const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal: controller.signal });
    controller.abort();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const refused = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${token.slice(0, -4)}AAAA`, Accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
  });

  it("closes a removed member's open stream with a final event: error frame (401 problem) at the next re-check", async () => {
    process.env.STREAM_RECHECK_SECONDS = '1';
    const token = await signIn(runtime.baseUrl, 'ben@example.com', 'ben-secret');
    const { body: me } = await apiClient(runtime.baseUrl, token)('GET', '/me');
    const admin = apiClient(runtime.baseUrl, (await createApiKey(tenant, { role: 'admin', name: 'member admin' })).key);
    const response = await fetch(`${runtime.baseUrl}/events/stream`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal: AbortSignal.timeout(15_000) });
    expect(response.status).toBe(200);

    expect((await admin('DELETE', `/members/${me.principal.id}`)).status).toBe(204);
    // The stream ends by itself (bounded by the signal above): its last frame is the error.
    const text = await response.text();
    delete process.env.STREAM_RECHECK_SECONDS;

    const frames = text.trimEnd().split('\n\n');
    expect(frames.at(-1)).toMatch(/^id: evt_\w+\nevent: error\ndata: /);
    expect(JSON.parse(frames.at(-1)!.split('data: ')[1])).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('serves a sign-in page with labelled fields and no script', async () => {
    const authorize = new URL(`${runtime.oidcIssuer}/auth`);
    authorize.search = new URLSearchParams({ client_id: 'gatehouse-dashboard', response_type: 'code', redirect_uri: `http://127.0.0.1:${runtime.port}/callback`, scope: 'openid email', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const cookie = redirect.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');

    const page = await fetch(new URL(redirect.headers.get('location')!, runtime.oidcIssuer), { headers: { Cookie: cookie } });
    const html = await page.text();

    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toContain('<script');
  });

  it('takes the dashboard opened on localhost as well, and no other redirect', async () => {
    const authorize = (origin: string) =>
      fetch(`${runtime.oidcIssuer}/auth?${new URLSearchParams({ client_id: 'gatehouse-dashboard', response_type: 'code', redirect_uri: `${origin}/callback`, scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' })}`, { redirect: 'manual' });

    const local = await authorize(`http://localhost:${runtime.port}`);
    const foreign = await authorize('https://evil.example');

    expect([local.status, local.headers.get('location')]).toEqual([303, expect.stringContaining('/oidc/interaction/')]);
    expect(foreign.status).toBe(400);
  });
});

describe('the dev user of a runtime started without users', () => {
  let devRuntime: TestRuntime;

  beforeAll(async () => {
    devRuntime = await startTestRuntime('oidc-dev', { workers: false });
  });

  afterAll(async () => {
    await devRuntime?.stop();
  });

  it('signs in with the password the runtime made, as admin of tenant dev', async () => {
    const { email, password } = devRuntime.devUser!;

    const token = await signIn(devRuntime.baseUrl, email, password!);
    const me = await apiClient(devRuntime.baseUrl, token)('GET', '/me');

    expect(email).toBe('dev@gatehouse.local');
    expect(me.body).toMatchObject({ principal: { type: 'user', email }, tenant_id: 'dev', role: 'admin' });
  });
});
