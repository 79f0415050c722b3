import { createHash } from 'node:crypto';
import type { DetectedFinding } from '#shared/scans/model';

/**
 * The same problem in the same place is the same finding across scans: the fingerprint is the
 * rule plus the normalised location (origin and path without query or fragment, lower-cased
 * host, no trailing slash; the element's selector when there is one). Line numbers are left out
 * on purpose: editing the page above the element must not make it a new finding.
 */
export function normaliseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/\/+$/, '') || '/';
    return `${parsed.protocol}//${parsed.host.toLowerCase()}${path}`;
  } catch {
    return url.trim();
  }
}

export function fingerprintOf(finding: Pick<DetectedFinding, 'rule_id' | 'location'>): string {
  const selector = (finding.location.selector ?? '').replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(`${finding.rule_id}\n${normaliseUrl(finding.location.url)}\n${selector}`).digest('hex').slice(0, 32);
}

/** A finding's id within a project: stable, derived from the project and the fingerprint. */
export function findingIdOf(projectId: string, fingerprint: string): string {
  return `fnd_${createHash('sha256').update(`${projectId}\n${fingerprint}`).digest('hex').slice(0, 26)}`;
}
