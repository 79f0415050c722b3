/** The parts of a finding the table filters on. */
export interface FilterableFinding {
  status: string;
  title: string;
  rule_id: string;
  description?: unknown;
  location?: unknown;
}

export interface FindingFilter {
  /** `''` for any status. */
  status: string;
  /** Words that must all appear (case-insensitive) in the title, rule, description or URL. */
  text: string;
}

function haystack(finding: FilterableFinding): string {
  const location = finding.location as { url?: unknown; selector?: unknown } | undefined;
  return [finding.title, finding.rule_id, finding.description, location?.url, location?.selector].filter((part) => typeof part === 'string').join(' ').toLowerCase();
}

/**
 * The loaded findings that match the status and text filters. The API filters by detector and
 * severity itself; it has no status or text filter, so those apply to the pages loaded so far.
 */
export function filterFindings<T extends FilterableFinding>(findings: T[], filter: FindingFilter): T[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return findings.filter((finding) => (!filter.status || finding.status === filter.status) && words.every((word) => haystack(finding).includes(word)));
}

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const DETECTORS = ['accessibility', 'security', 'ai_readiness'] as const;
export const FINDING_STATUSES = ['open', 'fixed', 'dismissed'] as const;
export const DISMISS_REASONS = [
  { value: 'false_positive', label: 'False positive' },
  { value: 'wont_fix', label: "Won't fix" },
  { value: 'used_in_tests', label: 'Used in tests' },
  { value: 'accepted_risk', label: 'Accepted risk' },
] as const;

/** The `severity` query value for the chosen severities: comma-separated, or none for all. */
export function severityQuery(chosen: readonly string[]): string | undefined {
  const known = SEVERITIES.filter((severity) => chosen.includes(severity));
  return known.length === 0 || known.length === SEVERITIES.length ? undefined : known.join(',');
}

/** `ai_readiness` → "AI readiness". */
export function detectorLabel(detector: string): string {
  if (detector === 'ai_readiness') return 'AI readiness';
  return detector.charAt(0).toUpperCase() + detector.slice(1).replace(/_/g, ' ');
}
