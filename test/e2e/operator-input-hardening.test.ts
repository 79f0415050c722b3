import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';

// Issue 25, points 1 and 4, from the requests that confirmed them: custom agents' schemas with an
// `$id` (500 after the write, an oracle, a cross-tenant `$ref`), and backtracking patterns.

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;

const taskType = (inputSchema: Record<string, unknown>) => ({ task_types: [{ task_type: 'deal.review', description: 'Reviews a deal.', input_schema: inputSchema, artifact_types: ['deal.review_report'] }] });
const deploy = (api: ReturnType<typeof apiClient>, slug: string, inputSchema: Record<string, unknown>) => api('POST', '/agents/deploy', { agent_slug: slug, name: slug, manifest: taskType(inputSchema) });
const acmeSchema = { $id: 'urn:acme:x', type: 'object', required: ['acme_merger_target'], properties: { acme_merger_target: { type: 'string' } } };

beforeAll(async () => {
  runtime = await startTestRuntime('schemas-regex');
  a = apiClient(runtime.baseUrl, runtime.keys.a);
  b = apiClient(runtime.baseUrl, runtime.keys.b);
  await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
});

afterAll(async () => {
  await runtime?.stop();
});

describe('custom agents\' input schemas under attack, on the local runtime', () => {
  it('takes every task of an agent whose schema has an $id: 202 queued or failed, never 500, one task per request', async () => {
    expect((await deploy(a, 'acme-deals', acmeSchema)).status).toBe(201);
    const answers = [];
    for (const input of [{ acme_merger_target: 'Initech' }, {}, { acme_merger_target: 'Globex' }]) {
      answers.push(await a('POST', '/tasks', { agent: 'acme-deals', task_type: 'deal.review', input }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202]);
    expect(answers.map((answer) => answer.body.status)).toEqual(['queued', 'failed', 'queued']);
    expect(answers[1].body.error).toMatchObject({ code: 'malformed_input', details: [{ path: 'input', message: "must have required property 'acme_merger_target'" }] });
    const listed = await a('GET', '/tasks?agent=acme-deals&limit=50');
    expect(listed.body.tasks.map((task: { task_id: string }) => task.task_id).sort()).toEqual(answers.map((answer) => answer.body.task_id).sort());
  });

  it('lets another tenant deploy the same $id (no oracle), and refuses its $ref to it as it refuses any outside reference', async () => {
    expect((await deploy(b, 'acme-deals', acmeSchema)).status).toBe(201);
    const probe = await deploy(b, 'acme-probe', { $ref: 'urn:acme:x' });
    const nothing = await deploy(b, 'acme-probe', { $ref: 'urn:nobody:y' });
    expect([probe.status, nothing.status]).toEqual([400, 400]);
    expect(probe.body.code).toBe('invalid_manifest');
    expect(probe.body.errors).toEqual([{ path: 'body.manifest.task_types.0.input_schema', message: expect.stringContaining("must point inside the schema (a '#' reference such as '#/$defs/name'), not 'urn:acme:x'") }]);
    expect(JSON.stringify(nothing.body.errors)).toBe(JSON.stringify(probe.body.errors).replace('urn:acme:x', 'urn:nobody:y'));
    expect(JSON.stringify(probe.body)).not.toContain('acme_merger_target');
    expect((await b('GET', '/agents/acme-probe')).status).toBe(404);
  });

  it('refuses at deploy a schema pattern no linear-time engine runs, and runs ^(a|a)*$ in linear time', async () => {
    const backreference = await deploy(a, 'pattern-probe', { type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } });
    expect(backreference.status).toBe(400);
    expect(backreference.body.errors[0].message).toContain('pattern "^(a)\\1$" cannot run in linear time');
    expect((await deploy(a, 'pattern-redos', { type: 'object', properties: { code: { type: 'string', pattern: '^(a|a)*$' } } })).status).toBe(201);
    // 28 characters stalled a backtracking engine 0.8 s, doubling per character; these are 50,000.
    const hostile = await a('POST', '/tasks', { agent: 'pattern-redos', task_type: 'deal.review', input: { code: `${'a'.repeat(50_000)}b` } });
    expect(hostile.status).toBe(202);
    expect(hostile.body.error).toMatchObject({ code: 'malformed_input', details: [{ path: 'input.code', message: 'must match pattern "^(a|a)*$"' }] });
  });
});

describe('trigger patterns under attack, on the local runtime', () => {
  const audit = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' } };

  it('refuses a backreference or lookaround with a 400 at the field', async () => {
    const refused = await a('POST', '/triggers', { name: 'Backreference', source: { type: 'mail', match: { from: '(a)\\1', subject: 'x(?=y)' } }, task: audit });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: { path: string }) => error.path)).toEqual(['body.source.match.from', 'body.source.match.subject']);
    expect(refused.body.errors[0].message).toContain('cannot run in linear time');
  });

  it('matches a mail subject with \\s*\\s*\\s*\\s*x in linear time: a hostile subject starts nothing, the next mail its task', async () => {
    const trigger = await a('POST', '/triggers', { name: 'Spaces then x', source: { type: 'mail', match: { subject: '\\s*\\s*\\s*\\s*x' } }, task: audit });
    expect(trigger.status).toBe(201);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: runtime.smtpPort, secure: false, ignoreTLS: true, connectionTimeout: 5_000 });
    try {
      // 28 spaces stalled the runtime 0.8 s on the old engine, doubling per character; the subject is capped at 4,000.
      await transport.sendMail({ from: 'mallory@attacker.example', to: trigger.body.source.address, subject: `${' '.repeat(3_990)}y`, text: 'stall', messageId: '<hostile@attacker.example>' });
      await transport.sendMail({ from: 'grace@customer.example', to: trigger.body.source.address, subject: '   x', text: 'match', messageId: '<match@customer.example>' });
    } finally {
      transport.close();
    }
    const tasks = await eventually(async () => {
      const { body } = await a('GET', `/tasks?trigger_id=${trigger.body.trigger_id}`);
      return body.tasks.length > 0 ? body.tasks : undefined;
    });
    expect(tasks).toHaveLength(1);
    expect(tasks[0].trigger).toMatchObject({ type: 'mail', message_id: 'match@customer.example' });
  });
});
