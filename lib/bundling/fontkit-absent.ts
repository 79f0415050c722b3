/**
 * Stands in for `fontkit` inside function bundles (an esbuild alias, see ./aliases.ts). pdfkit
 * imports it to embed font files; Gatehouse's PDFs use the standard PDF fonts only
 * (shared/scans/exports/pdf.ts), which pdfkit draws without it. fontkit and the brotli decoder it
 * brings are large (docs/benchmarks.md), and the export function would otherwise parse them at
 * every cold start.
 */
export function create(): never {
  throw new Error('Embedded fonts are not bundled: use a standard PDF font (Helvetica, Times, Courier)');
}
