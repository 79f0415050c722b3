/**
 * PDF export for people who do not read SARIF: one document with the project, the overall risk,
 * a per-detector summary, the ten most severe open findings and, per detector, a table of the
 * open findings grouped by rule and page. Uses pdfkit's built-in Helvetica only (no font files),
 * and takes the document dates from the report so the same report gives the same text.
 */
import PDFDocument from 'pdfkit';
import type { DetectorName, Severity } from '#shared/scans/model';
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
const MAX_CELL_CHARS = 160;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

interface Cell {
  text: string;
  color?: string;
  bold?: boolean;
}

type Doc = InstanceType<typeof PDFDocument>;

/**
 * The standard PDF fonts only cover WinAnsi (Latin-1 plus a few signs); anything else would come
 * out as garbage, so it becomes '?'. Control characters (newlines in titles) become spaces.
 */
function pdfText(value: string, max = MAX_CELL_CHARS): string {
  const clean = value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/[^\u0020-\u00ff]/gu, '?')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 3)}...` : clean;
}

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

/** Writes the report with page breaks handled by hand, so table rows never split across pages. */
class ReportWriter {
  private readonly left: number;
  private readonly width: number;

  constructor(private readonly doc: Doc) {
    this.left = doc.page.margins.left;
    this.width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page when fewer than `height` points are left on this one. */
  ensureSpace(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  title(text: string): void {
    this.doc.font(BOLD).fontSize(20).fillColor('#000000').text(pdfText(text), this.left, this.doc.y, { width: this.width });
    this.doc.moveDown(0.5);
  }

  heading(text: string): void {
    this.ensureSpace(60);
    this.doc.moveDown(0.8);
    this.doc.font(BOLD).fontSize(14).fillColor('#000000').text(pdfText(text), this.left, this.doc.y, { width: this.width });
    this.doc.moveDown(0.3);
  }

  field(label: string, value: string): void {
    this.ensureSpace(16);
    this.doc.font(BOLD).fontSize(10).fillColor('#000000').text(`${label}: `, this.left, this.doc.y, { continued: true, width: this.width });
    this.doc.font(FONT).text(pdfText(value, 400));
  }

  paragraph(text: string, options: { color?: string; size?: number; bold?: boolean } = {}): void {
    const size = options.size ?? 10;
    const value = pdfText(text, 600);
    this.doc.font(options.bold ? BOLD : FONT).fontSize(size);
    this.ensureSpace(this.doc.heightOfString(value, { width: this.width }) + 2);
    this.doc.fillColor(options.color ?? '#000000').text(value, this.left, this.doc.y, { width: this.width });
  }

  gap(lines = 0.5): void {
    this.doc.moveDown(lines);
  }

  table(columns: Column[], rows: Cell[][]): void {
    const pad = 4;
    const total = columns.reduce((sum, c) => sum + c.width, 0);
    const scale = this.width / total;
    const widths = columns.map((c) => c.width * scale);

    const rowHeight = (cells: Cell[], bold: boolean): number => {
      this.doc.fontSize(9);
      return (
        Math.max(
          ...cells.map((cell, i) => {
            this.doc.font(bold || cell.bold ? BOLD : FONT);
            return this.doc.heightOfString(cell.text, { width: widths[i] - 2 * pad });
          }),
        ) +
        2 * pad
      );
    };

    const drawRow = (cells: Cell[], header: boolean): void => {
      const height = rowHeight(cells, header);
      const y = this.doc.y;
      if (header) this.doc.rect(this.left, y, this.width, height).fill('#e8e8e8');
      let x = this.left;
      cells.forEach((cell, i) => {
        this.doc
          .font(header || cell.bold ? BOLD : FONT)
          .fontSize(9)
          .fillColor(cell.color ?? '#000000')
          .text(cell.text, x + pad, y + pad, { width: widths[i] - 2 * pad, align: columns[i].align ?? 'left', lineBreak: true });
        x += widths[i];
      });
      this.doc
        .moveTo(this.left, y + height)
        .lineTo(this.left + this.width, y + height)
        .lineWidth(0.5)
        .strokeColor('#bbbbbb')
        .stroke();
      this.doc.x = this.left;
      this.doc.y = y + height;
    };

    const header: Cell[] = columns.map((c) => ({ text: c.header }));
    const headerHeight = rowHeight(header, true);
    // Line breaks we put in a cell stay; each line is cleaned on its own.
    const safe = rows.map((row) => row.map((cell) => ({ ...cell, text: cell.text.split('\n').map((line) => pdfText(line)).join('\n') })));
    // Keep the header with at least the first row.
    this.ensureSpace(headerHeight + (safe.length ? rowHeight(safe[0], false) : 0));
    drawRow(header, true);
    for (const row of safe) {
      const height = rowHeight(row, false);
      if (this.doc.y + height > this.bottom) {
        this.doc.addPage();
        drawRow(header, true);
      }
      drawRow(row, false);
    }
    this.doc.moveDown(0.5);
  }

  /** "Page n of m" on every page; bottom margin lifted so the footer does not open a new page. */
  footer(text: string): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const margin = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      this.doc
        .font(FONT)
        .fontSize(8)
        .fillColor('#777777')
        .text(`${pdfText(text)} - page ${i + 1} of ${range.count}`, this.left, this.doc.page.height - margin / 2 - 4, {
          width: this.width,
          align: 'center',
          lineBreak: false,
        });
      this.doc.page.margins.bottom = margin;
    }
  }
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
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    bufferPages: true,
    info: {
      Title: `Gatehouse scan report - ${report.project.name}`,
      Author: `${report.tool.name} ${report.tool.version}`,
      Subject: report.project.target,
      Creator: report.tool.name,
      CreationDate: date,
      ModDate: date,
    },
  });

  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const w = new ReportWriter(doc);
  const open = report.findings.filter((f) => f.status === 'open');

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
    detectorRows(report.detectors),
  );
  for (const failed of report.detectors.filter((d) => d.status === 'failed')) {
    w.paragraph(`${DETECTOR_LABEL[failed.name] ?? failed.name} did not complete${failed.error ? `: ${failed.error}` : ''}.`, {
      color: SEVERITY_COLOR.high,
    });
  }

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

  const order = report.detectors.map((d) => d.name);
  for (const name of new Set([...order, ...open.map((f) => f.detector)])) {
    const detector = report.detectors.find((d) => d.name === name);
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

  w.footer(`Gatehouse - ${report.project.name} - scan ${report.scan_id}`);
  doc.end();
  return done;
}
