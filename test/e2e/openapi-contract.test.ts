import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { baselineRequest, operationsOf, requestArb, type DocOperation, type PlannedRequest } from '../support/openapi-operations';
import { rawClient, type RawResponse } from '../support/raw-http';

/**
 * Contract tests from the OpenAPI document the runtime serves (GET /v1/openapi.json): for every
 * operation, requests generated from its own schemas, valid and broken (test/support/
 * openapi-operations.ts), against the local runtime. No answer may be a 5xx or carry a status the
 * document does not declare for the operation, and every answer must match what the document
 * declares for its status: the media type, and for JSON the schema (Ajv, draft 2020-12).
 *
 * Size: CONTRACT_RUNS requests per operation (default 10), one at a time; deletions
 * run last, so the records the others name still exist.
 */

const RUNS = Number(process.env.CONTRACT_RUNS ?? 10);
/** Kinds of broken request the service must refuse whatever else the request holds. */
const MUST_REFUSE = ['no key', 'body of the wrong type', 'a body where none is taken', 'path id too long'];

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let operations: DocOperation[];
let ajv: Ajv2020;
const ids: Record<string, string> = {};
const outcomes = new Map<string, Map<number, number>>();

const mediaType = (response: RawResponse) => String(response.headers['content-type'] ?? '').split(';')[0].trim();

/** What is wrong with an answer to `request`, by the document's declaration for `operation`. */
function violations(operation: DocOperation, request: PlannedRequest, response: RawResponse): string[] {
  if (response.status >= 500) return [`${response.status}: ${response.body.slice(0, 300)}`];
  const declared = operation.responses[String(response.status)];
  if (!declared) return [`status ${response.status} is not declared (declared: ${Object.keys(operation.responses).join(', ')}): ${response.body.slice(0, 300)}`];
  const problems: string[] = [];
  if (MUST_REFUSE.includes(request.kind) && response.status < 400) problems.push(`a request with ${request.kind} answered ${response.status}`);
  if (!declared.content) {
    if (response.body !== '') problems.push(`status ${response.status} declares no body, got one`);
    return problems;
  }
  const type = mediaType(response);
  const content = declared.content[type];
  if (!content) return [...problems, `media type ${type} is not declared for ${response.status}`];
  if (!content.schema || !/json$/.test(type)) return problems;
  const validate = ajv.compile({ $ref: `openapi.json${(content.schema as { $ref?: string }).$ref ?? ''}` });
  if (!validate(JSON.parse(response.body))) problems.push(`body does not match the declared schema: ${ajv.errorsText(validate.errors)}`);
  return problems;
}

describe('contract: every operation of the OpenAPI document, against the local runtime', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('openapi', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    const document = await http.send({ method: 'GET', path: '/v1/openapi.json' });
    expect(document.status).toBe(200);
    const doc = JSON.parse(document.body);
    operations = operationsOf(doc).sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi.json', components: doc.components });

    // Records the generated requests can name (the others get ids that exist nowhere: 404).
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
    ids.task_id = (await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } })).body.task_id;
    ids.project_id = (await a('POST', '/projects', { name: 'Site', target: 'https://www.example.com/' })).body.project_id;
    ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, { detectors: ['security'] })).body.scan_id;
    ids.webhook_id = (await a('POST', '/webhooks', { url: 'https://hooks.example.com/gatehouse', events: ['task.complete'], secret: 'whsec-0123456789abcdef' })).body.webhook_id;
    ids.session_id = (await a('POST', '/sessions', { agent: 'ai-readiness', title: 'Contract' })).body.session_id;
    ids.trigger_id = (await a('POST', '/triggers', { name: 'Contract', source: { type: 'schedule', cron: '0 8 * * 1', timezone: 'Europe/Berlin' }, task: { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } } })).body.trigger_id;
    ids.code = 'validation-error';
    expect(Object.values(ids).every(Boolean)).toBe(true);
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
    const summary = [...outcomes.entries()].map(([operation, statuses]) => `${operation}: ${[...statuses.entries()].map(([status, count]) => `${status}×${count}`).join(' ')}`);
    console.log(`contract: ${RUNS} requests per operation\n${summary.join('\n')}`);
  });

  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it('answers every generated request with a declared status and a body that matches its schema', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      const label = `${operation.method} ${operation.path}`;
      const statuses = new Map<number, number>();
      outcomes.set(label, statuses);
      await fc.assert(
        fc.asyncProperty(requestArb(operation, runtime.keys.a, ids), async (request) => {
          const response = await http.send({ method: request.method, path: request.path, headers: request.headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          for (const violation of violations(operation, request, response)) failures.push(`${label} (${request.kind}: ${request.method} ${request.path} ${JSON.stringify(request.body) ?? ''}): ${violation}`);
        }),
        { numRuns: RUNS, examples: [[baselineRequest(operation, runtime.keys.a, ids)]] },
      );
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('has the reading operations on records that exist answer 2xx, so the success schemas are exercised', () => {
    const reads = operations.filter((operation) => operation.method === 'GET' && !operation.path.includes('/stream') && [...operation.path.matchAll(/\{([a-z_]+)\}/g)].every(([, name]) => ids[name]));
    const neverOk = reads.filter((operation) => ![...(outcomes.get(`${operation.method} ${operation.path}`)?.keys() ?? [])].some((status) => status >= 200 && status < 300)).map((operation) => `${operation.method} ${operation.path}`);

    expect(neverOk).toEqual([]);
  });
});
