import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanEvent } from '#shared/scans/scan-events';
import { systemClock } from '#shared/domain/clock';
import { newId } from '#shared/domain/ids';
import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { runDetector } from '#shared/services/scan-runner';
import { createScan } from '#shared/services/scan-creation';
import { createProject, getProject } from '#shared/services/scans';
import { renderScan, type CrawlLimits } from '#shared/scans/scan';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';
import { startTestSite, type TestSite } from '../../support/test-site-server';

let site: TestSite;

describe('scan runs on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('scan-runner');
    site = await startTestSite();
  });

  afterAll(async () => {
    await site?.close();
  });

  it('shows a running scan with progress, and finishes a run a dead worker left running when its message comes back', async () => {
    const tenant = uniqueTenant();
    const project = await createProject(tenant, { name: 'Site', target: site.url, crawl: { max_pages: 3, timeout_seconds: 2 } });
    const scan = await createScan(tenant, project.project_id, { detectors: ['security', 'ai_readiness'] });

    // A worker starts the security run and dies before it ends.
    expect(await scanRepository.startRun(scan, 'security', new Date().toISOString(), scanEvent('scan.started', scan, {}, systemClock))).toBe(true);
    const running = renderScan((await scanRepository.getScan(tenant, scan.scan_id))!);
    expect(running).toMatchObject({ status: 'running', detectors: ['security', 'ai_readiness'], progress: { security: 'running', ai_readiness: 'running' }, estimated_duration_seconds: expect.any(Number) });

    await runDetector(tenant, scan.scan_id, 'ai_readiness');
    expect(renderScan((await scanRepository.getScan(tenant, scan.scan_id))!)).toMatchObject({ status: 'running', progress: { ai_readiness: 'completed', security: 'running' } });
    // The dead worker's message is redelivered.
    await runDetector(tenant, scan.scan_id, 'security');

    const done = (await scanRepository.getScan(tenant, scan.scan_id))!;
    expect(done.status).toBe('completed');
    expect(done.runs.security.status).toBe('completed');
    expect(done.runs.security.summary!.total).toBeGreaterThan(0);
    // A late duplicate of either message changes nothing.
    await runDetector(tenant, scan.scan_id, 'security');
    const again = (await scanRepository.getScan(tenant, scan.scan_id))!;
    expect(again.completed_at).toBe(done.completed_at);
    expect((await scanRepository.allOccurrences(tenant, scan.scan_id)).length).toBe(done.runs.security.summary!.total + done.runs.ai_readiness.summary!.total);
  }, 60_000);

  it('reads a project stored before robots.txt and path patterns were settings with their defaults, and scans it', async () => {
    const tenant = uniqueTenant();
    const now = new Date().toISOString();
    // The crawl settings as they were stored then.
    const oldCrawl = { max_pages: 2, timeout_seconds: 2, max_page_bytes: 100_000 } as CrawlLimits;
    await scanRepository.createProject({ project_id: newId('prj'), tenant_id: tenant, name: 'Old site', target: site.url, default_detectors: ['security'], crawl: oldCrawl, created_at: now, updated_at: now });
    const [listed] = (await scanRepository.listProjects(tenant, 1)).projects;

    const project = await getProject(tenant, listed.project_id);
    expect(project.crawl).toEqual({ max_pages: 2, timeout_seconds: 2, max_page_bytes: 100_000, respect_robots_txt: true, include: [], exclude: [] });
    expect(listed.crawl).toEqual(project.crawl);
    const scan = await createScan(tenant, project.project_id, { detectors: ['security'] });
    await runDetector(tenant, scan.scan_id, 'security');

    expect((await scanRepository.getScan(tenant, scan.scan_id))!.status).toBe('completed');
  }, 60_000);

  it('never runs a detector of a cancelled scan', async () => {
    const tenant = uniqueTenant();
    const project = await createProject(tenant, { name: 'Site', target: site.url });
    const scan = await createScan(tenant, project.project_id, { detectors: ['security'] });
    await scanRepository.cancelScan(scan, scanEvent('scan.cancelled', scan, {}, systemClock));

    await runDetector(tenant, scan.scan_id, 'security');

    const cancelled = (await scanRepository.getScan(tenant, scan.scan_id))!;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.runs.security.status).toBe('pending');
    expect(await scanRepository.allOccurrences(tenant, scan.scan_id)).toEqual([]);
  });
});
