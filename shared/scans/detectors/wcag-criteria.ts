/**
 * WCAG 2.2 success criteria, keyed the way axe-core tags them (`wcag111` for 1.1.1,
 * `wcag1410` for 1.4.10), so a finding can cite the criterion it breaks.
 * Pure data: no I/O.
 */
export type WcagLevel = 'A' | 'AA' | 'AAA';

export interface WcagCriterion {
  /** Dotted number, e.g. `1.4.3`. */
  number: string;
  /** The anchor W3C uses for the criterion in the Recommendation and in Understanding WCAG 2.2. */
  slug: string;
  level: WcagLevel;
}

// Every criterion of WCAG 2.2 (and 4.1.1 Parsing, obsolete in 2.2 but still tagged by
// deprecated axe rules), not only those axe tests today: a new axe rule then still gets a
// precise reference without a code change here.
const CRITERIA: readonly WcagCriterion[] = [
  { number: '1.1.1', slug: 'non-text-content', level: 'A' },
  { number: '1.2.1', slug: 'audio-only-and-video-only-prerecorded', level: 'A' },
  { number: '1.2.2', slug: 'captions-prerecorded', level: 'A' },
  { number: '1.2.3', slug: 'audio-description-or-media-alternative-prerecorded', level: 'A' },
  { number: '1.2.4', slug: 'captions-live', level: 'AA' },
  { number: '1.2.5', slug: 'audio-description-prerecorded', level: 'AA' },
  { number: '1.2.6', slug: 'sign-language-prerecorded', level: 'AAA' },
  { number: '1.2.7', slug: 'extended-audio-description-prerecorded', level: 'AAA' },
  { number: '1.2.8', slug: 'media-alternative-prerecorded', level: 'AAA' },
  { number: '1.2.9', slug: 'audio-only-live', level: 'AAA' },
  { number: '1.3.1', slug: 'info-and-relationships', level: 'A' },
  { number: '1.3.2', slug: 'meaningful-sequence', level: 'A' },
  { number: '1.3.3', slug: 'sensory-characteristics', level: 'A' },
  { number: '1.3.4', slug: 'orientation', level: 'AA' },
  { number: '1.3.5', slug: 'identify-input-purpose', level: 'AA' },
  { number: '1.3.6', slug: 'identify-purpose', level: 'AAA' },
  { number: '1.4.1', slug: 'use-of-color', level: 'A' },
  { number: '1.4.2', slug: 'audio-control', level: 'A' },
  { number: '1.4.3', slug: 'contrast-minimum', level: 'AA' },
  { number: '1.4.4', slug: 'resize-text', level: 'AA' },
  { number: '1.4.5', slug: 'images-of-text', level: 'AA' },
  { number: '1.4.6', slug: 'contrast-enhanced', level: 'AAA' },
  { number: '1.4.7', slug: 'low-or-no-background-audio', level: 'AAA' },
  { number: '1.4.8', slug: 'visual-presentation', level: 'AAA' },
  { number: '1.4.9', slug: 'images-of-text-no-exception', level: 'AAA' },
  { number: '1.4.10', slug: 'reflow', level: 'AA' },
  { number: '1.4.11', slug: 'non-text-contrast', level: 'AA' },
  { number: '1.4.12', slug: 'text-spacing', level: 'AA' },
  { number: '1.4.13', slug: 'content-on-hover-or-focus', level: 'AA' },
  { number: '2.1.1', slug: 'keyboard', level: 'A' },
  { number: '2.1.2', slug: 'no-keyboard-trap', level: 'A' },
  { number: '2.1.3', slug: 'keyboard-no-exception', level: 'AAA' },
  { number: '2.1.4', slug: 'character-key-shortcuts', level: 'A' },
  { number: '2.2.1', slug: 'timing-adjustable', level: 'A' },
  { number: '2.2.2', slug: 'pause-stop-hide', level: 'A' },
  { number: '2.2.3', slug: 'no-timing', level: 'AAA' },
  { number: '2.2.4', slug: 'interruptions', level: 'AAA' },
  { number: '2.2.5', slug: 're-authenticating', level: 'AAA' },
  { number: '2.2.6', slug: 'timeouts', level: 'AAA' },
  { number: '2.3.1', slug: 'three-flashes-or-below-threshold', level: 'A' },
  { number: '2.3.2', slug: 'three-flashes', level: 'AAA' },
  { number: '2.3.3', slug: 'animation-from-interactions', level: 'AAA' },
  { number: '2.4.1', slug: 'bypass-blocks', level: 'A' },
  { number: '2.4.2', slug: 'page-titled', level: 'A' },
  { number: '2.4.3', slug: 'focus-order', level: 'A' },
  { number: '2.4.4', slug: 'link-purpose-in-context', level: 'A' },
  { number: '2.4.5', slug: 'multiple-ways', level: 'AA' },
  { number: '2.4.6', slug: 'headings-and-labels', level: 'AA' },
  { number: '2.4.7', slug: 'focus-visible', level: 'AA' },
  { number: '2.4.8', slug: 'location', level: 'AAA' },
  { number: '2.4.9', slug: 'link-purpose-link-only', level: 'AAA' },
  { number: '2.4.10', slug: 'section-headings', level: 'AAA' },
  { number: '2.4.11', slug: 'focus-not-obscured-minimum', level: 'AA' },
  { number: '2.4.12', slug: 'focus-not-obscured-enhanced', level: 'AAA' },
  { number: '2.4.13', slug: 'focus-appearance', level: 'AAA' },
  { number: '2.5.1', slug: 'pointer-gestures', level: 'A' },
  { number: '2.5.2', slug: 'pointer-cancellation', level: 'A' },
  { number: '2.5.3', slug: 'label-in-name', level: 'A' },
  { number: '2.5.4', slug: 'motion-actuation', level: 'A' },
  { number: '2.5.5', slug: 'target-size-enhanced', level: 'AAA' },
  { number: '2.5.6', slug: 'concurrent-input-mechanisms', level: 'AAA' },
  { number: '2.5.7', slug: 'dragging-movements', level: 'AA' },
  { number: '2.5.8', slug: 'target-size-minimum', level: 'AA' },
  { number: '3.1.1', slug: 'language-of-page', level: 'A' },
  { number: '3.1.2', slug: 'language-of-parts', level: 'AA' },
  { number: '3.1.3', slug: 'unusual-words', level: 'AAA' },
  { number: '3.1.4', slug: 'abbreviations', level: 'AAA' },
  { number: '3.1.5', slug: 'reading-level', level: 'AAA' },
  { number: '3.1.6', slug: 'pronunciation', level: 'AAA' },
  { number: '3.2.1', slug: 'on-focus', level: 'A' },
  { number: '3.2.2', slug: 'on-input', level: 'A' },
  { number: '3.2.3', slug: 'consistent-navigation', level: 'AA' },
  { number: '3.2.4', slug: 'consistent-identification', level: 'AA' },
  { number: '3.2.5', slug: 'change-on-request', level: 'AAA' },
  { number: '3.2.6', slug: 'consistent-help', level: 'A' },
  { number: '3.3.1', slug: 'error-identification', level: 'A' },
  { number: '3.3.2', slug: 'labels-or-instructions', level: 'A' },
  { number: '3.3.3', slug: 'error-suggestion', level: 'AA' },
  { number: '3.3.4', slug: 'error-prevention-legal-financial-data', level: 'AA' },
  { number: '3.3.5', slug: 'help', level: 'AAA' },
  { number: '3.3.6', slug: 'error-prevention-all', level: 'AAA' },
  { number: '3.3.7', slug: 'redundant-entry', level: 'A' },
  { number: '3.3.8', slug: 'accessible-authentication-minimum', level: 'AA' },
  { number: '3.3.9', slug: 'accessible-authentication-enhanced', level: 'AAA' },
  { number: '4.1.1', slug: 'parsing', level: 'A' },
  { number: '4.1.2', slug: 'name-role-value', level: 'A' },
  { number: '4.1.3', slug: 'status-messages', level: 'AA' },
];

const BY_TAG: ReadonlyMap<string, WcagCriterion> = new Map(CRITERIA.map((c) => [`wcag${c.number.replaceAll('.', '')}`, c]));

/** Where a reference goes when axe names a criterion this table does not know yet. */
export const WCAG22_RECOMMENDATION_URL = 'https://www.w3.org/TR/WCAG22/';

/** A success-criterion tag (`wcag111`, `wcag1410`), as opposed to a level tag (`wcag2a`, `wcag21aa`). */
export function isCriterionTag(tag: string): boolean {
  return /^wcag\d{3,}$/.test(tag);
}

/** The criterion an axe tag names, or undefined for level tags and unknown numbers. */
export function criterionForTag(tag: string): WcagCriterion | undefined {
  return BY_TAG.get(tag);
}

/**
 * The reference URLs for the success criteria in a list of axe tags: the Understanding page for a
 * known criterion, else the WCAG 2.2 Recommendation itself (a tag does not say which digits
 * belong to the guideline and which to the criterion, so no anchor can be guessed).
 */
export function criterionUrls(tags: readonly string[]): string[] {
  const urls = tags.filter(isCriterionTag).map((tag) => {
    const criterion = criterionForTag(tag);
    return criterion ? `https://www.w3.org/WAI/WCAG22/Understanding/${criterion.slug}` : WCAG22_RECOMMENDATION_URL;
  });
  return [...new Set(urls)];
}
