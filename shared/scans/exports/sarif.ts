/**
 * SARIF 2.1.0 export, shaped for GitHub code scanning (`github/codeql-action/upload-sarif`).
 *
 * Choices, so consumers know what they get:
 * - `results` holds only `open` findings: fixed and dismissed ones are history, not alerts, and
 *   GitHub closes an alert when its fingerprint is absent from a later upload.
 * - `baselineState` is `new` for a regression or a finding first seen in this scan, `unchanged`
 *   for one carried over from an earlier scan.
 * - Every result has a region: GitHub rejects results without one, so a finding with no line in
 *   the fetched HTML points at line 1, column 1 (header, TLS and robots.txt findings have none).
 * - `partialFingerprints['gatehouse/v1']` is our fingerprint, so GitHub tracks alerts across
 *   uploads instead of computing its own from file contents it cannot see (the URIs are URLs).
 * - `security-severity` (a string, read by GitHub from rule properties) is set on rules that have
 *   security impact: the highest CVSS of the rule's findings in this scan, else a score derived
 *   from the rule's default severity. Those rules are also tagged `security`, which GitHub needs
 *   before it reads `security-severity`.
 */
import type { DetectorName, FindingLocation, RuleDescription, Severity } from '#shared/scans/model';
import type { ReportFinding, ScanReport } from '#shared/scans/exports/scan-report';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const FINGERPRINT_KEY = 'gatehouse/v1';

type SarifLevel = 'error' | 'warning' | 'note';

/** critical/high → error, medium → warning, low/info → note. */
export function sarifLevel(severity: Severity): SarifLevel {
  if (severity === 'critical' || severity === 'high') return 'error';
  if (severity === 'medium') return 'warning';
  return 'note';
}

/** Representative CVSS for a security rule without findings: the middle of its severity band. */
const DEFAULT_SECURITY_SCORE: Record<Severity, number> = { critical: 9.5, high: 8.0, medium: 5.5, low: 2.5, info: 0 };

/** How often a rule's results are true positives (GitHub's `precision`): header and markup checks are deterministic, AI-readiness ones heuristic. */
const PRECISION: Record<DetectorName, 'very-high' | 'high' | 'medium' | 'low'> = {
  security: 'high',
  accessibility: 'high',
  ai_readiness: 'medium',
};

/** A rule for a finding whose rule is missing from `report.rules`, so every result has a rule. */
function ruleFromFinding(finding: ReportFinding): RuleDescription {
  return {
    rule_id: finding.rule_id,
    detector: finding.detector,
    name: finding.rule_id,
    short_description: finding.title,
    full_description: finding.description || finding.title,
    help: finding.remediation || finding.title,
    help_url: finding.references[0],
    default_severity: finding.severity,
  };
}

/** PascalCase identifier for `rule.name` (SARIF recommends an identifier, not prose). */
function ruleName(rule: RuleDescription): string {
  const words = (rule.name || rule.rule_id).split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return name || rule.rule_id;
}

function isAbsoluteUri(value: string | undefined): value is string {
  if (!value) return false;
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}

function buildRule(rule: RuleDescription, findings: ReportFinding[]): Record<string, unknown> {
  const maxCvss = findings.reduce((max, f) => Math.max(max, f.cvss_score), 0);
  const score =
    maxCvss > 0 ? maxCvss : rule.detector === 'security' ? DEFAULT_SECURITY_SCORE[rule.default_severity] : 0;
  const tags: string[] = [rule.detector];
  if (score > 0 && !tags.includes('security')) tags.push('security');
  const references = [...new Set(findings.flatMap((f) => f.references))].filter(isAbsoluteUri);
  const helpUri = isAbsoluteUri(rule.help_url) ? rule.help_url : references[0];
  const markdown = [
    rule.help,
    ...(references.length ? ['', '**References**', ...references.map((r) => `- <${r}>`)] : []),
  ].join('\n');
  return {
    id: rule.rule_id,
    name: ruleName(rule),
    shortDescription: { text: rule.short_description },
    fullDescription: { text: rule.full_description },
    help: { text: rule.help, markdown },
    ...(helpUri ? { helpUri } : {}),
    defaultConfiguration: { level: sarifLevel(rule.default_severity) },
    properties: {
      tags,
      precision: PRECISION[rule.detector],
      ...(score > 0 ? { 'security-severity': score.toFixed(1) } : {}),
    },
  };
}

function region(location: FindingLocation): Record<string, unknown> {
  const { line, column, end_line, end_column, snippet } = location;
  const startLine = line && line >= 1 ? Math.floor(line) : 1;
  const startColumn = column && column >= 1 ? Math.floor(column) : 1;
  const out: Record<string, unknown> = { startLine, startColumn };
  // SARIF's endLine defaults to startLine and endColumn is exclusive: emit only consistent ends.
  const endLine = end_line && end_line >= startLine ? Math.floor(end_line) : startLine;
  if (end_line && end_line >= startLine) out.endLine = endLine;
  if (end_column && (endLine > startLine ? end_column >= 1 : end_column > startColumn)) {
    out.endColumn = Math.floor(end_column);
  }
  if (snippet) out.snippet = { text: snippet };
  return out;
}

function sarifLocation(location: FindingLocation): Record<string, unknown> {
  return {
    physicalLocation: { artifactLocation: { uri: location.url }, region: region(location) },
    ...(location.selector ? { logicalLocations: [{ name: location.selector, kind: 'element' }] } : {}),
  };
}

function isNew(finding: ReportFinding, report: ScanReport): boolean {
  return finding.regression === true || Date.parse(finding.first_seen_at) >= Date.parse(report.created_at);
}

/** The report as a SARIF 2.1.0 log with one run; see the module comment for the choices made. */
export function toSarif(report: ScanReport): Record<string, unknown> {
  const open = report.findings.filter((f) => f.status === 'open');

  const rules = new Map<string, RuleDescription>();
  for (const rule of report.rules) rules.set(rule.rule_id, rule);
  for (const finding of open) if (!rules.has(finding.rule_id)) rules.set(finding.rule_id, ruleFromFinding(finding));
  const ruleIds = [...rules.keys()];
  const ruleIndex = new Map(ruleIds.map((id, index) => [id, index]));

  const results = open.map((finding) => ({
    ruleId: finding.rule_id,
    ruleIndex: ruleIndex.get(finding.rule_id),
    level: sarifLevel(finding.severity),
    message: { text: finding.description ? `${finding.title}: ${finding.description}` : finding.title },
    locations: [sarifLocation(finding.location)],
    // The other pages of a template's problem: code scanning shows the first place, and these beside it.
    ...(finding.other_locations?.length ? { relatedLocations: finding.other_locations.map((location, index) => ({ id: index + 1, ...sarifLocation(location), message: { text: 'The same element on another page' } })) } : {}),
    partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
    baselineState: isNew(finding, report) ? 'new' : 'unchanged',
    properties: {
      finding_id: finding.id,
      severity: finding.severity,
      detector: finding.detector,
      cvss_score: finding.cvss_score,
      ...(finding.cvss_vector ? { cvss_vector: finding.cvss_vector } : {}),
      first_seen_at: finding.first_seen_at,
      ...(finding.regression ? { regression: true } : {}),
      ...(finding.page_count ? { page_count: finding.page_count } : {}),
    },
  }));

  const failed = report.detectors.filter((d) => d.status === 'failed');
  const invocation: Record<string, unknown> = {
    executionSuccessful: failed.length === 0 && report.status !== 'failed',
    startTimeUtc: report.created_at,
    ...(report.completed_at ? { endTimeUtc: report.completed_at } : {}),
    ...(failed.length
      ? {
          toolExecutionNotifications: failed.map((d) => ({
            level: 'error',
            message: { text: `Detector ${d.name} failed${d.error ? `: ${d.error}` : ''}` },
            descriptor: { id: `gatehouse.detector.${d.name}` },
          })),
        }
      : {}),
  };

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            informationUri: report.tool.information_uri,
            rules: ruleIds.map((id) => {
              const rule = rules.get(id) as RuleDescription;
              return buildRule(rule, report.findings.filter((f) => f.rule_id === id));
            }),
          },
        },
        // GitHub keys alert categories on everything before the last '/'.
        automationDetails: { id: `gatehouse/${report.project.project_id}/${report.scan_id}` },
        invocations: [invocation],
        results,
        properties: {
          scan_id: report.scan_id,
          project: report.project,
          status: report.status,
          ...(report.risk_score !== undefined ? { risk_score: report.risk_score } : {}),
          ...(report.risk_level !== undefined ? { risk_level: report.risk_level } : {}),
        },
      },
    ],
  };
}
