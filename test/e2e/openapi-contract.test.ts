import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardNetwork, type NetworkGuard } from '../support/fuzz-network-guard';
import { routes } from '#functions/routes';
import { deployCustomAgent } from '../support/custom-agent';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { baselineRequest, operationsOf, requestArb, type ContractHooks, type DocOperation, type PlannedRequest } from '../support/openapi-operations';
import { startGitHubApiServer, type GitHubApiServer } from '../support/providers/github-api-server';
import { startSlackApiServer, type SlackApiServer } from '../support/providers/slack-api-server';
import { startSmtpTestServer, type SmtpTestServer } from '../support/providers/smtp-test-server';
import { rawClient, type RawResponse } from '../support/raw-http';
import { signedCallbackRoutes, signedCallbackSamples } from '../support/route-samples';
import { signedHeaders } from '../support/slack-requests';

/**
 * Contract tests from the OpenAPI document the runtime serves (GET /v1/openapi.json): for every
 * operation, requests generated from its own schemas, valid and broken (test/support/
 * openapi-operations.ts), against the local runtime. No answer may be a 5xx or carry a status the
 * document does not declare for the operation, and every answer must match what the document
 * declares for its status: the media type, and for JSON the schema (Ajv, draft 2020-12).
 *
 * Size: CONTRACT_RUNS requests per operation (default 10), one at a time; deletions
 * run last, so the records the others name still exist.
 *
 * Integrations are checked with their provider when connected: the generated bodies' provider
 * addresses are pointed at loopback providers this file starts (`pinProviders`), and a guard
 * fails any lookup of a name outside loopback (test/support/fuzz-network-guard.ts). The signed
 * callback operations (Slack's) are public in the document, but their requests are signed over
 * the raw body, which no schema describes: they are sent signed with the integration's secret,
 * and unsigned as the document alone would have them, which must be refused.
 */

const RUNS = Number(process.env.CONTRACT_RUNS ?? 10);
// A valid claim answers at once (204) instead of holding its request for a task that never comes.
process.env.GATEHOUSE_CLAIM_WAIT_SECONDS = '0';
/** Kinds of broken request the service must refuse whatever else the request holds. */
const MUST_REFUSE = ['no key', 'no signature', 'body of the wrong type', 'a body where none is taken', 'path id too long'];
/** The document's own example token: the loopback GitHub knows it, so the example connects. */
const EXAMPLE_GITHUB_TOKEN = 'ghp_exampletoken';
const SLACK_BOT_TOKEN = 'xoxb-contract-0123456789';
const SIGNING_SECRET = '1a2b3c4d5e6f70819a2b3c4d5e6f7081';

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let network: NetworkGuard;
let github: GitHubApiServer;
let slackApi: SlackApiServer;
let smtp: SmtpTestServer;
let hooks: ContractHooks;
/** The worker protocol's operations take an agent key, every other an admin key. */
let agentKey: string;
const keyOf = (operation: DocOperation) => (routes.find((route) => route.method === operation.method && route.path === operation.path)?.role === 'agent' ? agentKey : runtime.keys.a);
let operations: DocOperation[];
let ajv: Ajv2020;
const ids: Record<string, string> = {};
const outcomes = new Map<string, Map<number, number>>();

const mediaType = (response: RawResponse) => String(response.headers['content-type'] ?? '').split(';')[0].trim();
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A body with its provider addresses on this file's loopback providers: `settings.api_url` (when
 * absent or a string: absent means the real api.github.com or slack.com) and an SMTP host and
 * port. Values of another type stay, so a body invalid by them stays invalid.
 */
function pinProviders(operation: DocOperation, body: unknown): unknown {
  const connects = operation.path === '/integrations' && operation.method === 'POST';
  const changes = operation.path === '/integrations/{integration_id}' && operation.method === 'PATCH';
  if (!(connects || changes) || !isObject(body)) return body;
  const pinned = structuredClone(body);
  // PATCH changes the integration the path names: GitHub's (ids.integration_id) or none.
  const kind = connects ? pinned.kind : 'github';
  const apiUrl = kind === 'github' ? github.url : kind === 'slack' ? slackApi.url : undefined;
  if (apiUrl && (pinned.settings === undefined ? connects : isObject(pinned.settings)) && ['undefined', 'string'].includes(typeof (pinned.settings as Record<string, unknown> | undefined)?.api_url)) {
    pinned.settings = { ...(pinned.settings as object | undefined), api_url: apiUrl };
  }
  if (isObject(pinned.credentials) && typeof pinned.credentials.host === 'string') {
    pinned.credentials = { ...pinned.credentials, host: smtp.host, ...(Number.isInteger(pinned.credentials.port) ? { port: smtp.port } : {}) };
  }
  return pinned;
}

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
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    return [...problems, `the ${type} body is not JSON: ${JSON.stringify(response.body.slice(0, 100))}`];
  }
  if (!validate(json)) problems.push(`body does not match the declared schema: ${ajv.errorsText(validate.errors)}`);
  return problems;
}

describe('contract: every operation of the OpenAPI document, against the local runtime', () => {
  beforeAll(async () => {
    network = guardNetwork();
    github = await startGitHubApiServer({ tokens: { [EXAMPLE_GITHUB_TOKEN]: { login: 'contract', id: 1 } } });
    slackApi = await startSlackApiServer({ tokens: { [SLACK_BOT_TOKEN]: { team_id: 'T0CONTRACT', team: 'Contract', user_id: 'U0BOT', user: 'gatehouse', bot_id: 'B0BOT' } } });
    smtp = await startSmtpTestServer({ users: { contract: 'contract-password' } });
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
    ids.integration_id = (await a('POST', '/integrations', { kind: 'github', name: 'Contract', credentials: { token: EXAMPLE_GITHUB_TOKEN }, settings: { api_url: github.url } })).body.integration_id;
    const slackIntegrationId = (await a('POST', '/integrations', { kind: 'slack', name: 'Contract Slack', credentials: { bot_token: SLACK_BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slackApi.url } })).body.integration_id;
    agentKey = (await deployCustomAgent(runtime.baseUrl, runtime.keys.a)).agentKey;
    expect(Object.values(ids).every(Boolean)).toBe(true);
    expect(slackIntegrationId).toMatch(/^int_/);
    hooks = {
      body: pinProviders,
      signed: {
        covers: (operation) => signedCallbackRoutes.some((route) => route.method === operation.method && route.path === operation.path),
        ids: { integration_id: slackIntegrationId },
        sample: (operation) => signedCallbackSamples[`${operation.method} ${operation.path}`],
        sign: (body, contentType) => signedHeaders(SIGNING_SECRET, body, contentType),
      },
    };
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
    await Promise.all([github?.close(), slackApi?.close(), smtp?.close()]);
    network?.restore();
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
        fc.asyncProperty(requestArb(operation, keyOf(operation), ids, hooks), async (request) => {
          const response = await http.send({ method: request.method, path: request.path, headers: request.headers, body: request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body)) });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          for (const violation of violations(operation, request, response)) failures.push(`${label} (${request.kind}: ${request.method} ${request.path} ${request.rawBody ?? JSON.stringify(request.body) ?? ''}): ${violation}`);
        }),
        { numRuns: RUNS, examples: [[baselineRequest(operation, keyOf(operation), ids, hooks)]] },
      );
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('has the reading operations on records that exist answer 2xx, so the success schemas are exercised', () => {
    const reads = operations.filter((operation) => operation.method === 'GET' && !operation.path.includes('/stream') && [...operation.path.matchAll(/\{([a-z_]+)\}/g)].every(([, name]) => ids[name]));
    const neverOk = reads.filter((operation) => ![...(outcomes.get(`${operation.method} ${operation.path}`)?.keys() ?? [])].some((status) => status >= 200 && status < 300)).map((operation) => `${operation.method} ${operation.path}`);

    expect(neverOk).toEqual([]);
  });

  it('has the signed callbacks answer a signed request 2xx, and every integration connect reach only loopback providers', () => {
    const signed = operations.filter((operation) => hooks.signed!.covers(operation)).map((operation) => `${operation.method} ${operation.path}`);
    const neverOk = signed.filter((label) => ![...(outcomes.get(label)?.keys() ?? [])].some((status) => status >= 200 && status < 300));

    expect(signed.length).toBe(signedCallbackRoutes.length);
    expect(neverOk).toEqual([]);
    expect(network.refused).toEqual([]);
  });
});
