/**
 * The read model every export is built from: a finished (or failed) scan with its findings,
 * their history and the rules that produced them. Pure types and small helpers, no I/O.
 */
import type { DetectedFinding, DetectorName, RuleDescription, Severity } from '#shared/scans/model';
import { SEVERITIES } from '#shared/scans/model';
import type { SeveritySummary } from '#shared/scans/risk';

export type FindingStatus = 'open' | 'fixed' | 'dismissed';

export interface ReportFinding extends DetectedFinding {
  id: string;
  status: FindingStatus;
  /** Stable identity of the finding across scans (rule, page, element). */
  fingerprint: string;
  first_seen_at: string;
  /** True when the finding had been fixed in an earlier scan and came back. */
  regression?: boolean;
}

export type { SeveritySummary };

export interface ReportDetector {
  name: DetectorName;
  status: 'completed' | 'failed';
  risk_score: number;
  risk_level: string;
  summary: SeveritySummary;
  error?: string;
}

export interface ScanReport {
  scan_id: string;
  project: { project_id: string; name: string; target: string };
  status: string;
  created_at: string;
  completed_at?: string;
  duration_seconds?: number;
  risk_score?: number;
  risk_level?: string;
  detectors: ReportDetector[];
  findings: ReportFinding[];
  rules: RuleDescription[];
  tool: { name: 'Gatehouse'; version: string; information_uri: string };
}

/** 0 for critical … 4 for info: sorts the most severe first. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** Most severe first, then highest CVSS, then rule id and URL so the order is stable. */
export function compareFindings(a: DetectedFinding, b: DetectedFinding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    b.cvss_score - a.cvss_score ||
    a.rule_id.localeCompare(b.rule_id) ||
    a.location.url.localeCompare(b.location.url)
  );
}
