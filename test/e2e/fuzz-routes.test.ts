import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { guardNetwork, type NetworkGuard } from '../support/fuzz-network-guard';
import { describeRequest, requestArb, type Generated } from '../support/fuzz-requests';
import { deployCustomAgent } from '../support/custom-agent';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { startGitHubApiServer, type GitHubApiServer } from '../support/providers/github-api-server';
import { startSlackApiServer, type SlackApiServer } from '../support/providers/slack-api-server';
import { rawClient, type RawResponse } from '../support/raw-http';
import { routeKey, validBodies } from '../support/route-samples';
import { tableSnapshot } from '../support/table-snapshot';

/**
 * Property-based fuzzing of every route of functions/routes.ts (issue 5): malformed bodies,
 * queries, headers and path identifiers. Every response must be below 500 and a problem+json
 * when it is an error, and nothing may be written: the table is snapshotted before and after.
 *
 * Only invalid requests are generated for routes that write. Each such request is broken on
 * purpose in at least one dimension that the service must refuse (`Breakage` in
 * test/support/fuzz-requests.ts), while the other dimensions vary freely, valid or not; so any 2xx
 * on a writing route is a failure too (either the service accepted bad input or it wrote). One
 * breakage is a body valid in every way but one number the table cannot store (issue 13: such
 * bodies answered 500, and the other breakages never sent one alone). Reading routes get
 * free-form requests (a GET that happens to be valid may answer 200; it writes nothing either way).
 *
 * The signed callback routes (Slack's interactions and events) take no API key: their breakages
 * are a bad signature or an id that is no Slack integration, and correctly signed requests carry
 * every kind of body, from another Slack workspace so that none is acted on (see
 * test/support/fuzz-requests.ts). Integrations are connected against loopback providers, and
 * no name outside loopback may even be looked up (test/support/fuzz-network-guard.ts).
 *
 * Size: FUZZ_RUNS runs per route (default 30), each a batch of BATCH requests sent concurrently
 * on one runtime, so about routes × FUZZ_RUNS × BATCH requests in total; the count is printed.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
// A valid claim answers at once (204) instead of holding its request for a task that never comes.
process.env.GATEHOUSE_CLAIM_WAIT_SECONDS = '0';
const BATCH = 4;
const GITHUB_TOKEN = 'ghp_fuzz0123456789abcdef';
const SLACK_BOT_TOKEN = 'xoxb-fuzz-0123456789';
const SIGNING_SECRET = '0f1e2d3c4b5a69780f1e2d3c4b5a6978';

let runtime: TestRuntime;
let http: ReturnType<typeof rawClient>;
let network: NetworkGuard;
let github: GitHubApiServer;
let slackApi: SlackApiServer;
let otherIntegrationId: string;
/** Each tenant's agent key (the worker protocol's routes take nothing else). */
let agentKeys: { a: string; b: string };
/** Ids of tenant A's records that exist; for the others, ids that look right but exist nowhere. */
const ids: Record<string, string> = {
  artifact_id: 'art_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  approval_id: 'apr_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  delivery_id: 'evt_01jzzzzzzzzzzzzzzzzzzzzzzz',
  finding_id: 'fnd_01JZZZZZZZZZZZZZZZZZZZZZZZ',
  rule_id: 'security.missing-hsts',
  code: 'validation-error',
};
/** Real next_cursor values of A's listings, to derive tampered cursors from. */
const realCursors: string[] = [];
let before: string[];
let sent = 0;
const statuses = new Map<number, number>();

async function send(request: Generated): Promise<RawResponse> {
  const response = await http.send(request);
  sent++;
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  return response;
}

/** The failures a response shows, empty when it is acceptable for the request. */
function problemsOf(request: Generated, response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push('5xx');
  if (request.breakage && response.status < 400) problems.push(`a request broken in ${request.breakage} was accepted`);
  const type = String(response.headers['content-type'] ?? '');
  if (response.status >= 400 && !type.startsWith('application/problem+json')) problems.push(`error without problem+json (${type})`);
  if (response.status >= 400 && /\n\s+at |node_modules|\.ts:\d+|ValidationException|TENANT#tenant-/.test(response.body)) problems.push('internals in the error body');
  return problems;
}

describe('fuzzing every route of the route table', () => {
  beforeAll(async () => {
    network = guardNetwork();
    github = await startGitHubApiServer({ tokens: { [GITHUB_TOKEN]: { login: 'fuzz', id: 1 } } });
    slackApi = await startSlackApiServer({ tokens: { [SLACK_BOT_TOKEN]: { team_id: 'T0FUZZ', team: 'Fuzz', user_id: 'U0BOT', user: 'gatehouse', bot_id: 'B0BOT' } } });
    runtime = await startTestRuntime('fuzz', { workers: false });
    http = rawClient(`http://127.0.0.1:${runtime.port}`);
    const a = apiClient(runtime.baseUrl, runtime.keys.a);
    ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
    for (let index = 0; index < 2; index++) {
      ids.task_id = (await a('POST', '/tasks', validBodies['POST /tasks'])).body.task_id;
      ids.project_id = (await a('POST', '/projects', validBodies['POST /projects'])).body.project_id;
    }
    ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, validBodies['POST /projects/{project_id}/scans'])).body.scan_id;
    ids.webhook_id = (await a('POST', '/webhooks', validBodies['POST /webhooks'])).body.webhook_id;
    ids.session_id = (await a('POST', '/sessions', validBodies['POST /sessions'])).body.session_id;
    ids.trigger_id = (await a('POST', '/triggers', validBodies['POST /triggers'])).body.trigger_id;
    // A Slack integration, so that its signed callbacks reach their signature check and beyond, and a GitHub one.
    ids.integration_id = (await a('POST', '/integrations', { kind: 'slack', name: 'Fuzz Slack', credentials: { bot_token: SLACK_BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slackApi.url } })).body.integration_id;
    otherIntegrationId = (await a('POST', '/integrations', { kind: 'github', name: 'Fuzz GitHub', credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } })).body.integration_id;
    expect(otherIntegrationId).toMatch(/^int_/);
    for (const path of ['/tasks?limit=1', '/projects?limit=1', '/events?limit=1', '/approvals?limit=1&status=pending']) {
      const cursor = (await a('GET', path)).body.next_cursor;
      if (cursor) realCursors.push(cursor);
    }
    agentKeys = { a: (await deployCustomAgent(runtime.baseUrl, runtime.keys.a)).agentKey, b: (await deployCustomAgent(runtime.baseUrl, runtime.keys.b)).agentKey };
    // Used once before the snapshot: a key's first use records its last_used_at.
    for (const key of Object.values(agentKeys)) expect((await apiClient(runtime.baseUrl, key)('POST', '/agents/invoice-checker/claims', { wait_seconds: 0 })).status).toBe(204);
    expect(Object.values(ids).every(Boolean)).toBe(true);
    expect(realCursors.length).toBeGreaterThanOrEqual(3);
    before = await tableSnapshot();
  }, 120_000);

  afterAll(async () => {
    http?.close();
    await runtime?.stop();
    await Promise.all([github?.close(), slackApi?.close()]);
    network?.restore();
    const byStatus = [...statuses.entries()].sort(([x], [y]) => x - y).map(([status, count]) => `${status}×${count}`).join(' ');
    console.log(`fuzz: ${sent} requests over ${routes.length} routes (${RUNS} runs × ${BATCH} per route): ${byStatus}`);
  });

  for (const route of routes) {
    it(`${routeKey(route)}: no 5xx, every error a problem+json, no malformed write accepted`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(requestArb(route, route.role === 'agent' ? agentKeys : runtime.keys, { ids, realCursors, signingSecret: SIGNING_SECRET, otherIntegrationId }), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const responses = await Promise.all(batch.map(send));
          const failures = batch.flatMap((request, index) => problemsOf(request, responses[index]).map((problem) => `${problem}: ${describeRequest(request, responses[index])}`));
          if (failures.length > 0) throw new Error(failures.join('\n'));
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: 240_000, markInterruptAsFailure: false },
      );
    }, 300_000);
  }

  it('wrote nothing: the table is as it was before the malformed requests', async () => {
    expect(await tableSnapshot()).toEqual(before);
  });

  it('looked up no name outside loopback: no request reached a real provider', () => {
    expect(network.refused).toEqual([]);
  });
});
