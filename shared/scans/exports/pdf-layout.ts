import PDFDocument from 'pdfkit';

/**
 * The layout primitives of the PDF report: a writer over pdfkit with a title, headings, fields,
 * paragraphs, tables whose rows never split across pages, and a page footer. It knows nothing of
 * scans; pdf.ts composes the report's sections from it.
 */

const MAX_CELL_CHARS = 160;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

export interface Cell {
  text: string;
  color?: string;
  bold?: boolean;
}

type Doc = InstanceType<typeof PDFDocument>;

/**
 * The standard PDF fonts only cover WinAnsi (Latin-1 plus a few signs); anything else would come
 * out as garbage, so it becomes '?'. Control characters (newlines in titles) become spaces.
 */
export function pdfText(value: string, max = MAX_CELL_CHARS): string {
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

/** What the document says about itself; its dates come from the report, so the same report gives the same bytes. */
export interface DocumentInfo {
  Title: string;
  Author: string;
  Subject: string;
  Creator: string;
  CreationDate: Date;
  ModDate: Date;
}

/** Writes the report with page breaks handled by hand, so table rows never split across pages. */
export class ReportWriter {
  private readonly left: number;
  private readonly width: number;

  private constructor(
    private readonly doc: Doc,
    private readonly bytes: Promise<Buffer>,
  ) {
    this.left = doc.page.margins.left;
    this.width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  }

  /** A new A4 document; pages stay buffered so that `finish` can number them. */
  static open(info: DocumentInfo): ReportWriter {
    const doc = new PDFDocument({ size: 'A4', margin: 50, bufferPages: true, info });
    const chunks: Buffer[] = [];
    const bytes = new Promise<Buffer>((resolve, reject) => {
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
    return new ReportWriter(doc, bytes);
  }

  /** Puts the footer on every page and ends the document; resolves to its bytes. */
  finish(footerText: string): Promise<Buffer> {
    this.footer(footerText);
    this.doc.end();
    return this.bytes;
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
  private footer(text: string): void {
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
