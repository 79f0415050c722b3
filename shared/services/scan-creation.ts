import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { dispatchDetectorRun } from '#shared/adapters/sqs/scan-dispatcher';
import { scanEvent } from '#shared/scans/scan-events';
import { systemClock } from '#shared/domain/clock';
import { newId } from '#shared/domain/ids';
import type { DetectorName } from '#shared/scans/model';
import type { Project, Scan } from '#shared/scans/scan';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import { getProject, validTarget } from '#shared/services/scans';

// Scan creation is the one scan path that dispatches; it lives apart from the project and scan
// reads (shared/services/scans.ts) so that their functions do not bundle the SQS client.

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
  await scanRepository.createScan(scan, scanEvent('scan.created', scan, { detectors, target: scan.target, ...(scan.environment ? { environment: scan.environment } : {}), metadata: scan.metadata }, systemClock));
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
