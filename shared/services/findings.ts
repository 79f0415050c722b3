import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { renderFinding, type DismissReason, type Finding } from '#shared/scans/finding';
import type { DetectorName, Severity } from '#shared/scans/model';
import { getProject, getScan } from '#shared/services/scans';

export async function listScanFindings(tenantId: string, scanId: string, query: { detector?: DetectorName; severities?: Severity[]; limit: number; cursor?: string }) {
  const scan = await getScan(tenantId, scanId);
  const page = await scanRepository.listOccurrences(tenantId, scanId, query);
  const findings = await scanRepository.getFindings(tenantId, page.occurrences.map((occurrence) => occurrence.finding_id));
  return {
    scan_id: scanId,
    data: page.occurrences.map((occurrence) => renderFinding(occurrence, findings.get(occurrence.finding_id), scan.created_at)),
    total: page.total,
    has_more: page.nextCursor !== null,
    next_cursor: page.nextCursor,
  };
}

export async function getFinding(tenantId: string, findingId: string): Promise<Finding> {
  const finding = await scanRepository.getFinding(tenantId, findingId);
  if (!finding) throw new NotFoundError('finding', findingId);
  return finding;
}

export function renderStoredFinding(finding: Finding) {
  return { ...renderFinding(finding, finding), project_id: finding.project_id, last_seen_at: finding.last_seen_at, last_scan_id: finding.last_scan_id };
}

/**
 * Dismisses a finding (with a reason, as GitHub code scanning asks) or reopens it. A dismissed
 * finding stays dismissed when later scans see it again.
 */
export async function updateFindingStatus(tenantId: string, findingId: string, request: { status: 'dismissed' | 'open'; dismissed_reason?: DismissReason; comment?: string }): Promise<Finding> {
  const finding = await getFinding(tenantId, findingId);
  if (request.status === 'dismissed') {
    if (!request.dismissed_reason) throw new InvalidRequestError('Dismissing a finding needs a reason.', [{ path: 'body.dismissed_reason', message: 'required when status is dismissed' }]);
    return scanRepository.updateFinding(tenantId, findingId, { status: 'dismissed', dismissed_reason: request.dismissed_reason, ...(request.comment !== undefined ? { comment: request.comment } : {}) });
  }
  if (finding.status !== 'dismissed') return finding;
  return scanRepository.updateFinding(tenantId, findingId, { status: 'open', ...(request.comment !== undefined ? { comment: request.comment } : {}) }, ['dismissed_reason']);
}

export async function ruleHistory(tenantId: string, projectId: string, ruleId: string) {
  await getProject(tenantId, projectId);
  return { rule_id: ruleId, history: await scanRepository.history(tenantId, projectId, ruleId) };
}
