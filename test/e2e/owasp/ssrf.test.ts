import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpCrawlOptions } from '#shared/adapters/http/fetch-page';
import { assertDeliverableUrl, UndeliverableUrlError } from '#shared/adapters/http/ssrf-guard';
import { crawl } from '#shared/scans/crawler/crawl';
import { apiClient, eventually, scanEnded, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startHostileServer, type HostileServer } from '../../support/hostile-server';
import { startTestSite } from '../../support/test-site-server';

/**
 * OWASP API Security Top 10 (2023), API7 Server Side Request Forgery. The runtime runs as on AWS
 * here: WITHOUT the loopback allowances the local runtime normally has (WEBHOOK_ALLOW_LOOPBACK,
 * SCAN_ALLOW_LOOPBACK), so webhook URLs and scan targets may not reach loopback or private
 * networks. What can be judged from the URL is refused at creation (400); a name whose DNS answer
 * is private is refused when the worker resolves it, before any connection. See docs/security.md.
 */

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let webhookId: string;
let projectId: string;
const servers: HostileServer[] = [];

/** Every spelling of a non-public address that a URL can carry. */
const forbiddenUrls = [
  'https://127.0.0.1/',
  'https://127.1.2.3:8443/x',
  'https://10.0.0.1/',
  'https://172.16.0.1/',
  'https://172.31.255.254/',
  'https://192.168.1.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://169.254.170.2/v2/credentials',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://[::1]/',
  'https://[::]/',
  'https://[fc00::1]/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[64:ff9b::a00:1]/',
  // decimal, octal, hexadecimal and short forms, which URL parsing turns into dotted quads
  'https://2130706433/',
  'https://0x7f000001/',
  'https://017700000001/',
  'https://0177.0.0.1/',
  'https://0x7f.0x0.0x0.0x1/',
  'https://127.1/',
  'https://0/',
  'https://167772161/',
  'https://0xa9fea9fe/',
  'https://127.0.0.1./',
  // names that are loopback by definition
  'https://localhost/',
  'https://LOCALHOST./',
  'https://metadata.localhost/',
  // schemes and forms that are not an https URL to a public host
  'http://www.example.com/',
  'https://user:pass@www.example.com/',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_',
  'ftp://www.example.com/',
];

/** Names this machine resolves to loopback without DNS (from /etc/hosts), other than localhost. */
function loopbackNames(): string[] {
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  return hosts
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
    .filter(([address]) => address && isIP(address) && (address.startsWith('127.') || address === '::1'))
    .flatMap(([, ...names]) => names)
    .filter((name) => name && !/(^|\.)localhost$/i.test(name));
}

async function listener(): Promise<HostileServer> {
  const server = await startHostileServer(() => ({ kind: 'redirect', location: '/' }));
  servers.push(server);
  return server;
}

describe('API7 Server Side Request Forgery (runtime without loopback allowances)', () => {
  beforeAll(async () => {
    process.env.WEBHOOK_RETRY_SCALE_PERCENT = '0';
    runtime = await startTestRuntime('owasp-ssrf', { allowLoopback: false });
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    expect(process.env.WEBHOOK_ALLOW_LOOPBACK).toBe('false');
    expect(process.env.SCAN_ALLOW_LOOPBACK).toBe('false');
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    webhookId = (await a('POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['task.complete'], secret: 'whsec-ssrf-0123456789' })).body.webhook_id;
    projectId = (await a('POST', '/projects', { name: 'Public', target: 'https://www.example.com/' })).body.project_id;
    expect([webhookId, projectId].every(Boolean)).toBe(true);
  }, 120_000);

  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  describe('refused at creation (400) wherever the URL itself shows the address', () => {
    for (const url of forbiddenUrls) {
      it(url, async () => {
        const attempts = [
          await a('POST', '/webhooks', { url, events: ['task.complete'], secret: 'whsec-ssrf-0123456789' }),
          await a('PATCH', `/webhooks/${webhookId}`, { url }),
          await a('POST', '/projects', { name: 'Internal', target: url }),
          await a('PATCH', `/projects/${projectId}`, { target: url }),
          await a('POST', `/projects/${projectId}/scans`, { target_override: url }),
        ];

        expect(attempts.map((attempt) => attempt.status)).toEqual([400, 400, 400, 400, 400]);
        expect(attempts.map((attempt) => attempt.body.errors[0].path)).toEqual(['body.url', 'body.url', 'body.target', 'body.target', 'body.target_override']);
        expect((await a('GET', `/webhooks/${webhookId}`)).body.url).toBe('https://hooks.example.com/in');
        expect((await a('GET', `/projects/${projectId}`)).body.target).toBe('https://www.example.com/');
      });
    }
  });

  describe('names that resolve to loopback: refused when the worker resolves them, and no connection is ever opened', () => {
    const names = loopbackNames();

    it('this machine has a name for loopback besides localhost to test with (/etc/hosts)', () => {
      expect(names.length).toBeGreaterThan(0);
    });

    it('a webhook to such a name is recorded as a failed delivery; the listener never sees a connection', async () => {
      const server = await listener();
      const hook = await a('POST', '/webhooks', { url: `https://${names[0]}:${server.port}/hook`, events: ['task.complete'], secret: 'whsec-ssrf-0123456789' });
      expect(hook.status).toBe(201);

      await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });

      const delivery = await eventually(async () => {
        const { body } = await a('GET', `/webhooks/${hook.body.webhook_id}/deliveries`);
        return body.deliveries.find((candidate: any) => candidate.attempts.length > 0);
      }, 30_000, 200);
      expect(delivery.attempts[0]).toMatchObject({ ok: false, error: expect.stringMatching(/loopback/) });
      expect(server.connections).toBe(0);
      await a('DELETE', `/webhooks/${hook.body.webhook_id}`);
    });

    it('a scan of such a name reaches nothing; the listener never sees a connection', async () => {
      const server = await listener();
      const project = await a('POST', '/projects', { name: 'Rebound', target: `https://${names[0]}:${server.port}/`, crawl: { max_pages: 2, timeout_seconds: 2 } });
      expect(project.status).toBe(201);

      const scan = await a('POST', `/projects/${project.body.project_id}/scans`, { detectors: ['security'] });
      const finished = await scanEnded(a, scan.body.scan_id, 60_000);

      // the detector run fails with the refusal as its reason: nothing was fetched
      expect(finished.detectors.security.status).toBe('failed');
      expect(finished.detectors.security.error).toContain('blocked_url');
      expect(server.connections).toBe(0);
    });
  });

  describe('redirects and DNS answers that lead to a private address', () => {
    it('a DNS answer that mixes a public and a private address is refused as a whole', async () => {
      const error = await assertDeliverableUrl('https://mixed.example/', { allowLoopback: false, resolve: async () => ['93.184.216.34', '10.0.0.7'] }).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(UndeliverableUrlError);
      expect((error as UndeliverableUrlError).reason).toBe('forbidden_address');
    });

    it('the crawler does not follow a redirect from the site to the metadata address or a private host', async () => {
      const site = await startHostileServer((request) => ({ kind: 'redirect', location: request.url === '/' ? 'http://169.254.169.254/latest/meta-data/' : 'http://10.0.0.1/admin' }));
      servers.push(site);

      const result = await crawl(site.url, httpCrawlOptions({ maxPages: 3, maxBytes: 10_000, timeoutMs: 2_000, allowLoopback: true }));

      // robots.txt is read first, through the same guard, and its redirect is not followed either.
      expect(site.requests.map((request) => request.path)).toEqual(['/robots.txt', '/']);
      expect(result.pages.every((page) => !page.final_url.includes('169.254.169.254'))).toBe(true);
    });

    it('each same-origin redirect hop is resolved and vetted again: a name that rebinds to a private address is refused on the next hop', async () => {
      const site = await startTestSite();
      const port = new URL(site.url).port;
      const answers = [['127.0.0.1'], ['10.0.0.1']];
      let lookups = 0;
      try {
        const result = await crawl(`http://rebind.example:${port}/old-about`, httpCrawlOptions({ maxPages: 1, maxBytes: 50_000, timeoutMs: 2_000, allowLoopback: true, resolve: async () => answers[Math.min(lookups++, 1)] }));

        expect(lookups).toBe(2);
        expect(result.pages).toEqual([]);
        expect(result.problems).toEqual([expect.objectContaining({ reason: 'blocked_url' })]);
      } finally {
        await site.close();
      }
    });
  });
});
