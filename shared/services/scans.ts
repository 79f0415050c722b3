import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import type { DetectorName } from '#shared/scans/model';
import { scanEvent } from '#shared/scans/scan-events';
import { assertCancellable, withCrawlDefaults, type CrawlLimits, type Project, type Scan, type ScanStatus } from '#shared/scans/scan';

/** Scan targets on loopback are allowed only where the deployment says so (the local runtime). */
export function allowLoopbackTargets(): boolean {
  return process.env.SCAN_ALLOW_LOOPBACK === 'true';
}

/** The target as Gatehouse stores it; a URL it may not scan is a 400 naming `path`. */
export function validTarget(target: string, path: string): string {
  try {
    return validateWebhookUrl(target, { allowLoopback: allowLoopbackTargets() }).toString();
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      throw new InvalidRequestError('The target is not a URL Gatehouse can scan.', error.errors.map((item) => ({ ...item, path })), 'invalid_target');
    }
    throw error;
  }
}

export async function createProject(tenantId: string, request: { name: string; target: string; default_detectors?: DetectorName[]; crawl?: Partial<CrawlLimits> }): Promise<Project> {
  const now = systemClock.now().toISOString();
  const project: Project = {
    project_id: newId('prj'),
    tenant_id: tenantId,
    name: request.name,
    target: validTarget(request.target, 'body.target'),
    default_detectors: request.default_detectors ?? ['accessibility', 'security', 'ai_readiness'],
    crawl: withCrawlDefaults(request.crawl),
    created_at: now,
    updated_at: now,
  };
  await scanRepository.createProject(project);
  return project;
}

/** The tenant's projects, newest first, cursor-paged. */
export function listProjects(tenantId: string, query: { limit: number; cursor?: string }) {
  return scanRepository.listProjects(tenantId, query.limit, query.cursor);
}

export async function getProject(tenantId: string, projectId: string): Promise<Project> {
  const project = await scanRepository.getProject(tenantId, projectId);
  if (!project) throw new NotFoundError('project', projectId);
  return project;
}

export async function updateProject(tenantId: string, projectId: string, request: { name?: string; target?: string; default_detectors?: DetectorName[]; crawl?: Partial<CrawlLimits> }): Promise<Project> {
  const project = await getProject(tenantId, projectId);
  return scanRepository.updateProject(tenantId, projectId, {
    name: request.name,
    target: request.target === undefined ? undefined : validTarget(request.target, 'body.target'),
    default_detectors: request.default_detectors,
    crawl: request.crawl ? { ...project.crawl, ...request.crawl } : undefined,
    updated_at: systemClock.now().toISOString(),
  });
}

export async function getScan(tenantId: string, scanId: string): Promise<Scan> {
  const scan = await scanRepository.getScan(tenantId, scanId);
  if (!scan) throw new NotFoundError('scan', scanId);
  return scan;
}

export async function listScans(tenantId: string, projectId: string, query: { limit: number; cursor?: string; status?: ScanStatus }) {
  await getProject(tenantId, projectId);
  return scanRepository.listScans(tenantId, projectId, query);
}

export async function cancelScan(tenantId: string, scanId: string): Promise<Scan> {
  const scan = await getScan(tenantId, scanId);
  assertCancellable(scan);
  return scanRepository.cancelScan(scan, scanEvent('scan.cancelled', scan, {}, systemClock));
}

