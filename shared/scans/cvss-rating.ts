import type { Severity } from '#shared/scans/model';

/** The qualitative rating FIRST assigns to a score (0 is "None", reported as info). */
export function severityOfScore(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
}
