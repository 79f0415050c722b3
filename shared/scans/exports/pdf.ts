/**
 * PDF export for people who do not read SARIF: one document with the project, the overall risk,
 * a per-detector summary, the ten most severe open findings and, per detector, a table of the
 * open findings grouped by rule and page. Uses pdfkit's built-in Helvetica only (no font files),
 * and takes the document dates from the report so the same report gives the same text. This file
 * holds the sections; the page layout they are drawn with is in pdf-layout.ts.
 */
import type { DetectorName, Severity } from '#shared/scans/model';
import { pdfText, ReportWriter, type Cell } from '#shared/scans/exports/pdf-layout';
import { compareFindings, severityRank } from '#shared/scans/exports/scan-report';
import type { ReportDetector, ReportFinding, ScanReport } from '#shared/scans/exports/scan-report';

const DETECTOR_LABEL: Record<DetectorName, string> = {
  accessibility: 'Accessibility',
  security: 'Security',
  ai_readiness: 'AI readiness',
};

const SEVERITY_COLOR: Record<Severity, string> = {
  critical: '#8b0000',
  high: '#c0392b',
  medium: '#b9770e',
  low: '#1f618d',
  info: '#555555',
};

const TOP_FINDINGS = 10;

function formatDate(iso: string | undefined): string {
  if (!iso) return 'not available';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function formatDuration(seconds: number | undefined): string | undefined {
  if (seconds === undefined) return undefined;
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.round(seconds)} s`;
}

function severityCell(severity: Severity): Cell {
  return { text: severity, color: SEVERITY_COLOR[severity], bold: true };
}

function detectorRows(detectors: ReportDetector[]): Cell[][] {
  return detectors.map((d) => [
    { text: DETECTOR_LABEL[d.name] ?? d.name },
    { text: d.status, color: d.status === 'failed' ? SEVERITY_COLOR.high : undefined },
    { text: d.status === 'failed' ? '-' : `${d.risk_score} (${d.risk_level})` },
    { text: String(d.summary.critical) },
    { text: String(d.summary.high) },
    { text: String(d.summary.medium) },
    { text: String(d.summary.low) },
    { text: String(d.summary.info) },
    { text: String(d.summary.total), bold: true },
  ]);
}

/** Open findings of one detector grouped by rule, severity and page, most severe first. */
function groupedRows(findings: ReportFinding[]): Cell[][] {
  const groups = new Map<string, { finding: ReportFinding; count: number }>();
  for (const finding of [...findings].sort(compareFindings)) {
    const key = `${finding.rule_id}\u0000${finding.severity}\u0000${finding.location.url}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { finding, count: 1 });
  }
  return [...groups.values()].map(({ finding, count }) => [
    { text: `${pdfText(finding.title)}\n${finding.rule_id}` },
    severityCell(finding.severity),
    { text: finding.location.url },
    { text: String(count) },
  ]);
}

/** Renders the report as a PDF document. */
export function toPdf(report: ScanReport): Promise<Buffer> {
  const date = new Date(report.completed_at ?? report.created_at);
  const w = ReportWriter.open({
    Title: `Gatehouse scan report - ${report.project.name}`,
    Author: `${report.tool.name} ${report.tool.version}`,
    Subject: report.project.target,
    Creator: report.tool.name,
    CreationDate: date,
    ModDate: date,
  });
  const open = report.findings.filter((f) => f.status === 'open');
  writeOverview(w, report, open);
  writeDetectorSummary(w, report.detectors);
  writeTopFindings(w, open);
  writeDetectorFindings(w, report.detectors, open);
  return w.finish(`Gatehouse - ${report.project.name} - scan ${report.scan_id}`);
}

/** The project, the scan and the overall risk. */
function writeOverview(w: ReportWriter, report: ScanReport, open: ReportFinding[]): void {
  w.title('Gatehouse scan report');
  w.field('Project', report.project.name);
  w.field('Target', report.project.target);
  w.field('Scan date', formatDate(report.created_at));
  w.field('Scan status', report.status);
  const duration = formatDuration(report.duration_seconds);
  if (duration) w.field('Duration', duration);
  w.field('Scan id', report.scan_id);
  w.gap();
  w.paragraph(
    report.risk_score !== undefined || report.risk_level !== undefined
      ? `Overall risk: ${report.risk_level ?? 'unrated'}${report.risk_score !== undefined ? ` (score ${report.risk_score} of 100)` : ''}`
      : 'Overall risk: not available',
    { size: 14, bold: true, color: '#000000' },
  );
  w.paragraph(
    `${open.length} open finding${open.length === 1 ? '' : 's'}; ` +
      `${report.findings.filter((f) => f.status === 'fixed').length} fixed, ` +
      `${report.findings.filter((f) => f.status === 'dismissed').length} dismissed.`,
  );
}

/** One row per detector with its status, risk and counts per severity; why a failed one failed. */
function writeDetectorSummary(w: ReportWriter, detectors: ReportDetector[]): void {
  w.heading('Summary by detector');
  w.table(
    [
      { header: 'Detector', width: 110 },
      { header: 'Status', width: 70 },
      { header: 'Risk', width: 80 },
      { header: 'Critical', width: 48, align: 'right' },
      { header: 'High', width: 40, align: 'right' },
      { header: 'Medium', width: 48, align: 'right' },
      { header: 'Low', width: 36, align: 'right' },
      { header: 'Info', width: 36, align: 'right' },
      { header: 'Total', width: 40, align: 'right' },
    ],
    detectorRows(detectors),
  );
  for (const failed of detectors.filter((d) => d.status === 'failed')) {
    w.paragraph(`${DETECTOR_LABEL[failed.name] ?? failed.name} did not complete${failed.error ? `: ${failed.error}` : ''}.`, {
      color: SEVERITY_COLOR.high,
    });
  }
}

/** The most severe open findings, each with where it is and how to fix it. */
function writeTopFindings(w: ReportWriter, open: ReportFinding[]): void {
  w.heading('Top findings');
  const top = [...open].sort(compareFindings).slice(0, TOP_FINDINGS);
  if (!top.length) w.paragraph('No open findings.');
  top.forEach((finding, index) => {
    w.ensureSpace(48);
    w.paragraph(`${index + 1}. ${finding.title}`, { bold: true });
    w.paragraph(
      `${finding.severity.toUpperCase()}${finding.cvss_score > 0 ? `, CVSS ${finding.cvss_score.toFixed(1)}` : ''} - ` +
        `${DETECTOR_LABEL[finding.detector]} - ${finding.rule_id} - ${finding.location.url}`,
      { color: SEVERITY_COLOR[finding.severity], size: 9 },
    );
    if (finding.remediation) w.paragraph(`Fix: ${finding.remediation}`, { size: 9, color: '#333333' });
    w.gap(0.4);
  });
}

/** Per detector (in report order, then any other with open findings), its open findings grouped by rule and page. */
function writeDetectorFindings(w: ReportWriter, detectors: ReportDetector[], open: ReportFinding[]): void {
  const order = detectors.map((d) => d.name);
  for (const name of new Set([...order, ...open.map((f) => f.detector)])) {
    const detector = detectors.find((d) => d.name === name);
    const findings = open.filter((f) => f.detector === name).sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
    w.heading(`${DETECTOR_LABEL[name] ?? name} findings`);
    w.paragraph(
      `Detector ${name}: ${detector ? `${detector.status}, risk ${detector.risk_score} (${detector.risk_level})` : 'no result'}.`,
      { size: 9, color: '#555555' },
    );
    w.gap(0.3);
    if (!findings.length) {
      w.paragraph(detector?.status === 'failed' ? 'The detector failed; no findings to show.' : 'No open findings.');
      continue;
    }
    w.table(
      [
        { header: 'Rule', width: 190 },
        { header: 'Severity', width: 60 },
        { header: 'Page', width: 200 },
        { header: 'Count', width: 45, align: 'right' },
      ],
      groupedRows(findings),
    );
  }
}
