import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, scanEnded, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { startTestSite, type TestSite } from '../support/test-site-server';
import { startReceiver } from '../support/webhook-receiver';

let runtime: TestRuntime;
let site: TestSite;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: ReturnType<typeof apiClient>;

const SCAN_EVENTS = ['scan.created', 'scan.started', 'scan.completed', 'scan.failed', 'scan.cancelled'];

const eventsOf = async (scanId: string) => {
  const { body } = await a('GET', `/events?type=${SCAN_EVENTS.join(',')}&limit=100`);
  return (body.events as { type: string; scan_id?: string; data: Record<string, any> }[]).filter((event) => event.data.scan_id === scanId);
};

describe("a scan's events in the event log and on webhooks", () => {
  beforeAll(async () => {
    site = await startTestSite();
    runtime = await startTestRuntime('scan-events');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    receiver = await startReceiver(() => 204);
    expect((await a('POST', '/webhooks', { url: receiver.url, events: ['scan.completed', 'scan.failed', 'scan.cancelled'], secret: 'whsec-scan-events-0123456789' })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
    await site?.close();
    await receiver?.close();
  });

  it('records created, started and completed with the risk and the counts, and delivers the ending to a webhook', async () => {
    const project = (await a('POST', '/projects', { name: 'Events site', target: site.url, crawl: { max_pages: 3, timeout_seconds: 2 } })).body;
    const scan = (await a('POST', `/projects/${project.project_id}/scans`, { detectors: ['security'], metadata: { branch: 'main' } })).body;
    const done = await scanEnded(a, scan.scan_id, 60_000);

    const events = await eventsOf(scan.scan_id);
    expect(events.map((event) => event.type)).toEqual(['scan.created', 'scan.started', `scan.${done.status}`]);
    expect(events.every((event) => event.scan_id === scan.scan_id && event.data.project_id === project.project_id)).toBe(true);
    expect(events[0].data).toMatchObject({ detectors: ['security'], target: site.url, metadata: { branch: 'main' } });
    const ended = events[2].data;
    expect(ended).toMatchObject({ status: done.status, risk_score: done.risk_score, risk_level: done.risk_level, metadata: { branch: 'main' } });
    expect(ended.summary).toEqual(done.detectors.security.summary);

    const delivered = await eventually(async () => receiver.received.map((delivery) => JSON.parse(delivery.body)).find((body) => body.data?.scan_id === scan.scan_id), 30_000);
    expect(delivered).toMatchObject({ type: `scan.${done.status}`, data: { scan_id: scan.scan_id, risk_level: done.risk_level } });
  }, 90_000);

  it('records a cancel once, and nothing after it', async () => {
    const project = (await a('POST', '/projects', { name: 'Cancelled site', target: site.url, crawl: { max_pages: 3, timeout_seconds: 2 } })).body;
    const scan = (await a('POST', `/projects/${project.project_id}/scans`, { detectors: ['security'] })).body;
    const cancelled = await a('POST', `/scans/${scan.scan_id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((await a('POST', `/scans/${scan.scan_id}/cancel`)).status).toBe(409);

    const types = (await eventsOf(scan.scan_id)).map((event) => event.type);
    expect(types.filter((type) => type === 'scan.cancelled')).toHaveLength(1);
    expect(types).not.toContain('scan.completed');
    await eventually(async () => (receiver.received.some((delivery) => JSON.parse(delivery.body).data?.scan_id === scan.scan_id) ? true : undefined), 30_000);
  }, 60_000);
});
