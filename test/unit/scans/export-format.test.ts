import { describe, expect, it } from 'vitest';
import { exportScan } from '#shared/scans/exports/export-format';
import { toSarif } from '#shared/scans/exports/sarif';
import { fixture } from './report-fixture';

describe('exportScan', () => {
  it.each([
    ['json', 'application/json', 'gatehouse-scan-scn_01JEXPORT.json'],
    ['sarif', 'application/sarif+json', 'gatehouse-scan-scn_01JEXPORT.sarif'],
    ['csv', 'text/csv; charset=utf-8', 'gatehouse-scan-scn_01JEXPORT.csv'],
    ['pdf', 'application/pdf', 'gatehouse-scan-scn_01JEXPORT.pdf'],
  ] as const)('exports %s as %s named %s', async (format, contentType, fileName) => {
    const exported = await exportScan(fixture(), format);

    expect(exported.contentType).toBe(contentType);
    expect(exported.fileName).toBe(fileName);
    expect(exported.body.length).toBeGreaterThan(0);
  });

  it('exports the full report as JSON and the SARIF log as JSON', async () => {
    const report = fixture();

    const [json, sarif] = await Promise.all([exportScan(report, 'json'), exportScan(report, 'sarif')]);

    expect(JSON.parse(json.body.toString('utf8'))).toEqual(report);
    expect(JSON.parse(sarif.body.toString('utf8'))).toEqual(toSarif(report));
  });

  it('keeps the file name header-safe', async () => {
    const report = { ...fixture(), scan_id: 'scn_1"\r\n../x' };

    const exported = await exportScan(report, 'csv');

    expect(exported.fileName).toBe('gatehouse-scan-scn_1x.csv');
  });
});
