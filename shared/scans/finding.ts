import type { DetectedFinding } from '#shared/scans/model';

export type FindingStatus = 'open' | 'fixed' | 'dismissed';
export const DISMISS_REASONS = ['false_positive', 'wont_fix', 'used_in_tests', 'accepted_risk'] as const;
export type DismissReason = (typeof DISMISS_REASONS)[number];

/** A problem of a project, the same across scans (one per fingerprint), with its lifecycle. */
export interface Finding extends DetectedFinding {
  finding_id: string;
  tenant_id: string;
  project_id: string;
  fingerprint: string;
  status: FindingStatus;
  first_seen_at: string;
  last_seen_at: string;
  last_scan_id: string;
  /** Fixed once, then seen again. */
  regression?: boolean;
  fixed_at?: string;
  dismissed_reason?: DismissReason;
  comment?: string;
}

/** One finding as found by one scan. */
export interface Occurrence extends DetectedFinding {
  finding_id: string;
  scan_id: string;
  fingerprint: string;
}

export function renderFinding(occurrence: Occurrence | Finding, finding: Finding | undefined, scanCreatedAt?: string) {
  return {
    id: occurrence.finding_id,
    detector: occurrence.detector,
    severity: occurrence.severity,
    rule_id: occurrence.rule_id,
    title: occurrence.title,
    description: occurrence.description,
    location: occurrence.location,
    ...(occurrence.page_count && occurrence.page_count > 1 ? { page_count: occurrence.page_count, other_locations: occurrence.other_locations ?? [] } : {}),
    remediation: occurrence.remediation,
    cvss_score: occurrence.cvss_score,
    ...(occurrence.cvss_vector ? { cvss_vector: occurrence.cvss_vector } : {}),
    references: occurrence.references,
    fingerprint: occurrence.fingerprint,
    first_seen_at: finding?.first_seen_at ?? scanCreatedAt ?? '',
    status: finding?.status ?? 'open',
    ...(finding?.regression ? { regression: true } : {}),
    ...(finding?.dismissed_reason ? { dismissed_reason: finding.dismissed_reason } : {}),
    ...(finding?.comment !== undefined ? { comment: finding.comment } : {}),
    ...(finding?.fixed_at && finding.status === 'fixed' ? { fixed_at: finding.fixed_at } : {}),
  };
}
