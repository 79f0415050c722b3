import { createHash } from 'node:crypto';
import type { DetectedFinding } from '#shared/scans/model';

/**
 * The same problem in the same place is the same finding across scans: the fingerprint is the
 * rule plus the normalised location (origin and path without query or fragment, lower-cased
 * host, no trailing slash; the element's selector when there is one). Line numbers are left out
 * on purpose: editing the page above the element must not make it a new finding.
 *
 * An accessibility finding is about an element, and a site's template renders the same element on
 * many pages: its place is the element (selector and markup), not the page, so the header's image
 * without alt is one finding whatever page shows it (the pages are its locations, finding-groups.ts).
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

const collapse = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export function fingerprintOf(finding: Pick<DetectedFinding, 'detector' | 'rule_id' | 'location'>): string {
  const selector = collapse(finding.location.selector);
  const place = isElementFinding(finding) ? `element\n${selector}\n${collapse(finding.location.snippet)}` : `${normaliseUrl(finding.location.url)}\n${selector}`;
  return createHash('sha256').update(`${finding.rule_id}\n${place}`).digest('hex').slice(0, 32);
}

/** A finding about one element of a page's markup, which the same template repeats on other pages. */
function isElementFinding(finding: Pick<DetectedFinding, 'detector' | 'location'>): boolean {
  return finding.detector === 'accessibility' && Boolean(finding.location.selector) && Boolean(finding.location.snippet);
}

/** A finding's id within a project: stable, derived from the project and the fingerprint. */
export function findingIdOf(projectId: string, fingerprint: string): string {
  return `fnd_${createHash('sha256').update(`${projectId}\n${fingerprint}`).digest('hex').slice(0, 26)}`;
}
