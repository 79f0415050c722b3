import { describe, expect, it } from 'vitest';
import { toPdf } from '#shared/scans/exports/pdf';
import { pdfPageTexts, pdfText } from '../../support/pdf-text';
import { finding, fixture, TOP_TITLE } from './report-fixture';

describe('PDF export', () => {
  it('renders a readable report with the project, risk, detectors and top finding', async () => {
    const pdf = await toPdf(fixture());

    const text = (await pdfText(pdf)).replace(/\s+/g, ' ');

    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(text).toContain('Acme Shop');
    expect(text).toContain('https://shop.example.com');
    expect(text).toContain('Overall risk: high');
    for (const name of ['security', 'accessibility', 'ai_readiness']) expect(text).toContain(`Detector ${name}`);
    expect(text).toContain(`1. ${TOP_TITLE}`);
  });

  it('paginates many findings and renders text the standard fonts cannot show', async () => {
    const report = fixture();
    const many = Array.from({ length: 150 }, (_, i) =>
      finding({
        id: `fnd_many_${i}`,
        detector: 'accessibility',
        rule_id: `accessibility.rule-${i % 7}`,
        severity: 'low',
        title: `Contrast issue ${i} ✓ 日本語`,
        location: { type: 'url', url: `https://shop.example.com/page/${i}/${'segment/'.repeat(i % 5)}` },
      }),
    );
    report.findings.push(...many);

    const pageTexts = await pdfPageTexts(await toPdf(report));

    const text = pageTexts.join('\n');
    const pages = pageTexts.filter((page) => page.trim()).length;
    expect(pages).toBeGreaterThan(3);
    expect(text).toContain(`page ${pages} of ${pages}`);
    expect(text).toContain('page/149/');
  });

  it('gives the same document for the same report', async () => {
    const [a, b] = await Promise.all([toPdf(fixture()), toPdf(fixture())]);

    expect(a.equals(b)).toBe(true);
  });
});
