import { expect } from 'vitest';
import { apiClient, eventually, type TestRuntime } from '../../support/local-runtime';
import type { RouteDefinition } from '#functions/routes';
import { deployCustomAgent } from '../../support/custom-agent';
import { startGitHubApiServer } from '../../support/providers/github-api-server';
import { startSlackApiServer } from '../../support/providers/slack-api-server';
import type { TestSite } from '../../support/test-site-server';
import { startReceiver, type ReceivedDelivery } from '../../support/webhook-receiver';

export type Client = ReturnType<typeof apiClient>;

/**
 * Two tenants with real records of every kind a route can name by path: tenant A's ids are what
 * tenant B tries to reach. Keys are the route table's path parameter names, so the object-level
 * tests can fill any route path from it (a missing name fails them).
 */
export interface TenantWorld {
  a: Client;
  b: Client;
  /** A's records, by path parameter name. */
  ids: Record<string, string>;
  /** B's own task and webhook, to see that B's views are B's. */
  bTaskId: string;
  bWebhookId: string;
  /** Every delivery each tenant's receiver got (live). */
  received: { a: ReceivedDelivery[]; b: ReceivedDelivery[] };
  webhookSecret: string;
  /**
   * Each tenant's Slack integration (not in `ids`, whose `integration_id` is A's GitHub one), with
   * the signing secret its Slack app signs callbacks with: the callbacks' only credential.
   */
  slack: Record<'a' | 'b', { integrationId: string; signingSecret: string }>;
  /** Every provider credential the tenants connected with: none may ever come back. */
  credentials: string[];
  /** Each tenant's agent key, bound to its own custom agent `invoice-checker` (deployed in both). */
  agentKeys: Record<'a' | 'b', string>;
  /** The tenant's client a route is called with: its agent key for the worker protocol, its admin key otherwise. */
  as(tenant: 'a' | 'b', route: Pick<RouteDefinition, 'role'>): Client;
  close(): Promise<void>;
}

const GITHUB_TOKEN = 'ghp_worldTenantA0123456789abcdef';
const SLACK_BOT_TOKENS = { a: 'xoxb-world-tenant-a-0123456789', b: 'xoxb-world-tenant-b-0123456789' };
const SLACK_SIGNING_SECRETS = { a: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', b: 'f9e8d7c6b5a4938271605f4e3d2c1b0a' };

const aiTask = { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } };
const draftTask = {
  agent: 'sales',
  task_type: 'sales.draft_email',
  input: { lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' }, product: { name: 'Gatehouse', value_proposition: 'A human in the loop.' }, tone: 'concise' },
};

async function status(call: Client, path: string, done: (body: any) => boolean, timeoutMs = 30_000): Promise<any> {
  return eventually(async () => {
    const { body } = await call('GET', path);
    return done(body) ? body : undefined;
  }, timeoutMs, 200);
}

/** Builds the two tenants' records and waits until no work is left running. */
export async function buildTenantWorld(runtime: TestRuntime, site: TestSite): Promise<TenantWorld> {
  const a = apiClient(runtime.baseUrl, runtime.keys.a);
  const b = apiClient(runtime.baseUrl, runtime.keys.b);
  const webhookSecret = 'whsec-world-secret-0123456789';
  const receiverA = await startReceiver(() => 204);
  const receiverB = await startReceiver(() => 204);
  // Loopback providers: connecting an integration checks its credentials with the provider.
  const github = await startGitHubApiServer({ tokens: { [GITHUB_TOKEN]: { login: 'world-a', id: 7 } } });
  const slackApi = await startSlackApiServer({
    tokens: {
      [SLACK_BOT_TOKENS.a]: { team_id: 'T0WORLDA', team: 'World A', user_id: 'U0BOTA', user: 'gatehouse', bot_id: 'B0BOTA' },
      [SLACK_BOT_TOKENS.b]: { team_id: 'T0WORLDB', team: 'World B', user_id: 'U0BOTB', user: 'gatehouse', bot_id: 'B0BOTB' },
    },
  });
  const ids: Record<string, string> = {};

  ids.agent_id = (await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' })).body.agent_id;
  await a('POST', '/agents/deploy', { agent_slug: 'sales' });
  await b('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
  const hookA = await a('POST', '/webhooks', { url: receiverA.url, events: ['task.complete'], secret: webhookSecret });
  const hookB = await b('POST', '/webhooks', { url: receiverB.url, events: ['task.complete'], secret: webhookSecret });
  expect([hookA.status, hookB.status]).toEqual([201, 201]);
  ids.webhook_id = hookA.body.webhook_id;
  ids.key_id = (await a('POST', '/api-keys', { name: 'world key', role: 'viewer' })).body.key_id;
  ids.user_id = (await a('POST', '/members', { email: `world.${Date.now()}@example.com`, role: 'viewer' })).body.user_id;

  ids.session_id = (await a('POST', '/sessions', { agent: 'ai-readiness', title: 'World session' })).body.session_id;
  expect((await a('POST', `/sessions/${ids.session_id}/messages`, { content: 'A message of tenant A' })).status).toBe(201);
  const trigger = await a('POST', '/triggers', {
    name: 'World trigger',
    source: { type: 'event', artifact_type: 'sales.lead_list', agent: 'sales' },
    task: { agent: 'sales', task_type: 'sales.enrich_leads', input_mapping: { leads: '/artifact/data/leads' } },
  });
  expect(trigger.status).toBe(201);
  ids.trigger_id = trigger.body.trigger_id;

  // Both tenants deploy a custom agent of the same slug: each one's agent key is bound to its own.
  const agentKeys = { a: (await deployCustomAgent(runtime.baseUrl, runtime.keys.a)).agentKey, b: (await deployCustomAgent(runtime.baseUrl, runtime.keys.b)).agentKey };
  const agents = { a: apiClient(runtime.baseUrl, agentKeys.a), b: apiClient(runtime.baseUrl, agentKeys.b) };
  const admins = { a, b };

  const gitHub = await a('POST', '/integrations', { kind: 'github', name: 'World GitHub', credentials: { token: GITHUB_TOKEN }, settings: { api_url: github.url } });
  expect(gitHub.status, JSON.stringify(gitHub.body)).toBe(201);
  ids.integration_id = gitHub.body.integration_id;
  // No approvals channel: the world's approvals stay off Slack.
  const connectSlack = async (call: Client, tenant: 'a' | 'b') => {
    const connected = await call('POST', '/integrations', { kind: 'slack', name: 'World Slack', credentials: { bot_token: SLACK_BOT_TOKENS[tenant], signing_secret: SLACK_SIGNING_SECRETS[tenant] }, settings: { api_url: slackApi.url } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    return { integrationId: connected.body.integration_id as string, signingSecret: SLACK_SIGNING_SECRETS[tenant] };
  };
  const slack = { a: await connectSlack(a, 'a'), b: await connectSlack(b, 'b') };

  ids.task_id = (await a('POST', '/tasks', aiTask)).body.task_id;
  const bTaskId = (await b('POST', '/tasks', aiTask)).body.task_id;
  const draft = (await a('POST', '/tasks', draftTask)).body.task_id;
  await status(a, `/tasks/${ids.task_id}`, (task) => task.status === 'complete');
  await status(b, `/tasks/${bTaskId}`, (task) => task.status === 'complete');
  await status(a, `/tasks/${draft}`, (task) => task.status === 'awaiting_approval');
  ids.artifact_id = (await a('GET', `/tasks/${ids.task_id}/artifacts`)).body.artifacts[0].artifact_id;
  ids.approval_id = (await a('GET', `/approvals?task_id=${draft}`)).body.approvals[0].approval_id;
  const deliveries = await status(a, `/webhooks/${ids.webhook_id}/deliveries`, (body) => body.deliveries.length > 0 && body.deliveries.every((delivery: any) => delivery.status === 'succeeded'));
  ids.delivery_id = deliveries.deliveries[0].delivery_id;
  await status(b, `/webhooks/${hookB.body.webhook_id}/deliveries`, (body) => body.deliveries.length > 0 && body.deliveries.every((delivery: any) => delivery.status === 'succeeded'));

  const project = await a('POST', '/projects', { name: 'Site', target: site.url, crawl: { max_pages: 3, timeout_seconds: 2 } });
  expect(project.status).toBe(201);
  ids.project_id = project.body.project_id;
  ids.scan_id = (await a('POST', `/projects/${ids.project_id}/scans`, { detectors: ['security'] })).body.scan_id;
  await status(a, `/scans/${ids.scan_id}`, (scan) => ['completed', 'failed'].includes(scan.status), 90_000);
  const finding = (await a('GET', `/scans/${ids.scan_id}/findings?limit=1`)).body.data[0];
  ids.finding_id = finding.id;
  ids.rule_id = finding.rule_id;

  return {
    a,
    b,
    ids,
    bTaskId,
    bWebhookId: hookB.body.webhook_id,
    received: { a: receiverA.received, b: receiverB.received },
    webhookSecret,
    slack,
    credentials: [GITHUB_TOKEN, ...Object.values(SLACK_BOT_TOKENS), ...Object.values(SLACK_SIGNING_SECRETS)],
    agentKeys,
    as: (tenant, route) => (route.role === 'agent' ? agents[tenant] : admins[tenant]),
    close: async () => {
      await receiverA.close();
      await receiverB.close();
      await github.close();
      await slackApi.close();
    },
  };
}

/** An id of the same shape as `id` that names nothing: its last characters changed. */
export function unknownLike(id: string): string {
  const tail = id.endsWith('zzzzzz') ? 'yyyyyy' : 'zzzzzz';
  return `${id.slice(0, Math.max(1, id.length - tail.length))}${tail}`;
}
