import type { DetectedFinding, DetectorName, FindingLocation, RuleDescription, Severity } from '#shared/scans/model';
import { severityOfScore } from '#shared/scans/cvss-rating';

/**
 * One declaration per rule: the text exports and docs show, and the CVSS vector with its base
 * score, from which the severity follows. The score is written out rather than computed at load
 * (every function that describes rules would load a CVSS calculator for it); the rule metadata
 * tests compute each vector's score and fail on any disagreement.
 */

export interface RuleSpec {
  rule_id: string;
  detector: DetectorName;
  name: string;
  title: string;
  description: string;
  remediation: string;
  references: string[];
  /** CVSS 3.1 base vector; the severity follows FIRST's rating of its score. */
  cvss_vector?: string;
  /** The vector's CVSS 3.1 base score (with the vector, always). */
  cvss_score?: number;
  /** Only for rules without a vector (no security impact). */
  severity?: Severity;
}

export interface Rule extends RuleSpec {
  severity: Severity;
  cvss_score: number;
}

export function defineRule(spec: RuleSpec): Rule {
  const cvss_score = spec.cvss_vector ? (spec.cvss_score ?? Number.NaN) : 0;
  return { ...spec, cvss_score, severity: spec.severity ?? severityOfScore(cvss_score) };
}

export function describeRule(rule: Rule): RuleDescription {
  return {
    rule_id: rule.rule_id,
    detector: rule.detector,
    name: rule.name,
    short_description: rule.title,
    full_description: rule.description,
    help: rule.remediation,
    help_url: rule.references[0],
    default_severity: rule.severity,
  };
}

/** A finding of `rule` at `location`; `detail` is appended to the rule's description. */
export function findingOf(rule: Rule, location: FindingLocation, detail?: string): DetectedFinding {
  return {
    detector: rule.detector,
    rule_id: rule.rule_id,
    severity: rule.severity,
    title: rule.title,
    description: detail ? `${rule.description} ${detail}` : rule.description,
    location,
    remediation: rule.remediation,
    references: rule.references,
    cvss_score: rule.cvss_score,
    ...(rule.cvss_vector ? { cvss_vector: rule.cvss_vector } : {}),
  };
}

/**
 * Findings about a header or cookie rather than an element still need a distinct, stable
 * selector: the fingerprint is rule + URL + selector, so two cookies on one page would
 * otherwise merge into one finding. This pseudo-selector names the header and the item.
 */
export function headerSelector(header: string, item?: string): string {
  return item === undefined ? `header:${header}` : `header:${header}[name="${item.replace(/"/g, '\\"')}"]`;
}

/** A 200 answer that is not an HTML page: soft-404 sites answer every path with their HTML shell. */
export function isRealFile(page: { status: number; content_type: string; body: string } | undefined): boolean {
  if (!page || page.status !== 200) return false;
  if (page.content_type === 'text/html' || page.content_type === 'application/xhtml+xml') return false;
  return !/^\s*(<!doctype html|<html|<head|<body)/i.test(page.body);
}
