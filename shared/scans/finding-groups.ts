import { fingerprintOf } from '#shared/scans/fingerprint';
import type { DetectedFinding } from '#shared/scans/model';

/**
 * One template's problem across pages is one finding: detections with the same fingerprint (for
 * an element problem, the same rule, selector and markup on any page; fingerprint.ts) become one,
 * placed at the first page in crawl order, with the other pages as its other locations and the
 * number of pages. So a header image without alt on 40 pages counts once, in the summary and in
 * the risk, and still says where it shows.
 */

/** Other pages kept per finding: enough to find the template, bounded so a finding stays a small item. */
export const MAX_OTHER_LOCATIONS = 20;

/** The run's findings by fingerprint, each template's problem merged into its first page's finding. */
export function groupByFingerprint(detected: readonly DetectedFinding[]): Map<string, DetectedFinding> {
  const groups = new Map<string, DetectedFinding>();
  for (const finding of detected) {
    const key = fingerprintOf(finding);
    const first = groups.get(key);
    if (!first) {
      groups.set(key, finding);
      continue;
    }
    // The same place twice (a redelivered page) adds nothing.
    const places = [first.location, ...(first.other_locations ?? [])];
    if (places.some((place) => place.url === finding.location.url)) continue;
    const pageCount = (first.page_count ?? 1) + 1;
    const others = first.other_locations ?? [];
    groups.set(key, { ...first, page_count: pageCount, other_locations: others.length < MAX_OTHER_LOCATIONS ? [...others, finding.location] : others });
  }
  return groups;
}
