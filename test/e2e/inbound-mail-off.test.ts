import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_MAIL_SWITCH_ENV } from '#shared/config/inbound-mail';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';

/**
 * A deployment without inbound mail (`gatehouse:inboundMail` off, as in eu-central-2, where SES
 * receives no mail): the stack gives the trigger routes GATEHOUSE_INBOUND_MAIL=off. Handlers read it
 * per call, and each test file runs in its own process, so this file's runtime is such a deployment.
 */
let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;

const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } };
const mailTrigger = { name: 'Audit on request', source: { type: 'mail', match: { subject: 'audit' } }, task: audit };

describe('mail triggers where the deployment receives no mail', () => {
  beforeAll(async () => {
    process.env[INBOUND_MAIL_SWITCH_ENV] = 'off';
    runtime = await startTestRuntime('inbound-mail-off');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
    delete process.env[INBOUND_MAIL_SWITCH_ENV];
  });

  it('refuses to create a mail trigger with 409 inbound_mail_unavailable, and creates nothing', async () => {
    const refused = await a('POST', '/triggers', mailTrigger);

    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 409, code: 'inbound_mail_unavailable', type: '/v1/problems/inbound-mail-unavailable' });
    expect(refused.body.detail).toMatch(/not available in this deployment/);
    expect((await a('GET', '/triggers')).body.triggers).toEqual([]);
  });

  it('refuses to turn a trigger into a mail trigger, and keeps it as it was; other changes still apply', async () => {
    const created = await a('POST', '/triggers', { name: 'Monday audit', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'Europe/Berlin' }, task: audit });
    expect(created.status).toBe(201);

    const refused = await a('PATCH', `/triggers/${created.body.trigger_id}`, { source: mailTrigger.source });
    const renamed = await a('PATCH', `/triggers/${created.body.trigger_id}`, { name: 'Weekly audit' });

    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('inbound_mail_unavailable');
    expect(renamed.status).toBe(200);
    expect((await a('GET', `/triggers/${created.body.trigger_id}`)).body).toMatchObject({ name: 'Weekly audit', source: { type: 'schedule', cron: '0 8 * * 1' } });
  });

  it("tells the dashboard in config.json, which the trigger form reads", async () => {
    const response = await fetch(`http://127.0.0.1:${runtime.port}/config.json`, { signal: AbortSignal.timeout(10_000) });

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ inboundMail: false });
  });
});
