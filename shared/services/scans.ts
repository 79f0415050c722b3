import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { validateWebhookUrl } from '#shared/adapters/http/ssrf-guard';
import { dispatchDetectorRun } from '#shared/adapters/sqs/scan-dispatcher';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import type { DetectorName } from '#shared/scans/model';
import { DEFAULT_CRAWL, assertCancellable, type CrawlLimits, type Project, type Scan, type ScanStatus } from '#shared/scans/scan';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

/** Scan targets on loopback are allowed only where the deployment says so (the local runtime). */
export function allowLoopbackTargets(): boolean {
  return process.env.SCAN_ALLOW_LOOPBACK === 'true';
}

function validTarget(target: string, path: string): string {
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
    crawl: { ...DEFAULT_CRAWL, ...request.crawl },
    created_at: now,
    updated_at: now,
  };
  await scanRepository.createProject(project);
  return project;
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

/** From the project's recent completed scans; the first scan gets an estimate from its crawl budget. */
async function estimateDuration(tenantId: string, project: Project, detectors: DetectorName[]): Promise<number> {
  const { scans } = await scanRepository.listScans(tenantId, project.project_id, { limit: 5, status: 'completed' });
  const durations = scans.map((scan) => scan.duration_seconds).filter((value): value is number => typeof value === 'number');
  if (durations.length > 0) return Math.max(1, Math.round(durations.reduce((sum, value) => sum + value, 0) / durations.length));
  return Math.max(5, Math.round(project.crawl.max_pages * 1.5 + detectors.length * 2));
}

export async function createScan(
  tenantId: string,
  projectId: string,
  request: { detectors?: DetectorName[]; environment?: string; target_override?: string; detector_options?: Record<string, Record<string, unknown>>; metadata?: Record<string, unknown> },
): Promise<Scan> {
  const project = await getProject(tenantId, projectId);
  const detectors = [...new Set(request.detectors ?? project.default_detectors)];
  const now = systemClock.now();
  const scan: Scan = {
    scan_id: newId('scn', now.getTime()),
    tenant_id: tenantId,
    project_id: projectId,
    status: 'pending',
    detectors,
    detector_options: request.detector_options ?? {},
    ...(request.environment ? { environment: request.environment } : {}),
    target: request.target_override ? validTarget(request.target_override, 'body.target_override') : project.target,
    crawl: project.crawl,
    metadata: request.metadata ?? {},
    runs: Object.fromEntries(detectors.map((name) => [name, { status: 'pending' as const }])),
    created_at: now.toISOString(),
    estimated_duration_seconds: await estimateDuration(tenantId, project, detectors),
  };
  await scanRepository.createScan(scan);
  addLogContext({ scan_id: scan.scan_id });
  recordMetric('scansCreated', 1);
  // The scan is durable before its detectors are queued; a lost dispatch is re-sent from the
  // active-scan index when the runtime starts (and by the sweeper).
  for (const detector of detectors) {
    await dispatchDetectorRun({ tenant_id: tenantId, scan_id: scan.scan_id, detector }).catch((error) =>
      logger.warn('detector dispatch failed; recovery will re-dispatch', { scan_id: scan.scan_id, detector, error: error as Error }),
    );
  }
  return scan;
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
  return scanRepository.cancelScan(scan, systemClock.now().toISOString());
}

