import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { detectorRules } from '#shared/scans/detectors/rule-catalog';
import type { ReportDetector, ScanReport } from '#shared/scans/exports/scan-report';
import { renderFinding } from '#shared/scans/finding';
import type { RuleDescription } from '#shared/scans/model';
import { getProject, getScan } from '#shared/services/scans';

/** Everything an export needs about one scan: the scan, its findings with their status, the rules. */
export async function buildScanReport(tenantId: string, scanId: string): Promise<ScanReport> {
  const scan = await getScan(tenantId, scanId);
  const project = await getProject(tenantId, scan.project_id);
  const occurrences = await scanRepository.allOccurrences(tenantId, scanId);
  const findings = await scanRepository.getFindings(tenantId, occurrences.map((occurrence) => occurrence.finding_id));
  const reported = occurrences.map((occurrence) => {
    const view = renderFinding(occurrence, findings.get(occurrence.finding_id), scan.created_at);
    return { ...occurrence, id: view.id, status: view.status, first_seen_at: view.first_seen_at, ...(view.regression ? { regression: true } : {}) };
  });
  const used = new Set(reported.map((finding) => finding.rule_id));
  const rules: RuleDescription[] = scan.detectors
    .flatMap((name) => detectorRules(name, scan.detector_options[name] ?? {}))
    .filter((rule) => used.has(rule.rule_id));
  const detectors: ReportDetector[] = scan.detectors.map((name) => {
    const run = scan.runs[name];
    return {
      name,
      status: run?.status === 'completed' ? 'completed' : 'failed',
      risk_score: run?.risk_score ?? 0,
      risk_level: run?.risk_level ?? 'low',
      summary: run?.summary ?? { total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0 },
      ...(run?.error ? { error: run.error } : {}),
    };
  });
  return {
    scan_id: scan.scan_id,
    project: { project_id: project.project_id, name: project.name, target: scan.target },
    status: scan.status,
    created_at: scan.created_at,
    ...(scan.completed_at ? { completed_at: scan.completed_at } : {}),
    ...(scan.duration_seconds !== undefined ? { duration_seconds: scan.duration_seconds } : {}),
    ...(scan.risk_score !== undefined ? { risk_score: scan.risk_score, risk_level: scan.risk_level } : {}),
    detectors,
    findings: reported,
    rules,
    tool: { name: 'Gatehouse', version: '0.1.0', information_uri: 'https://github.com/gatehouse/gatehouse' },
  };
}
