import { describe, expect, it } from 'vitest';
import { detectorLabel, filterFindings, severityQuery } from '../../../web/src/features/scans/lib/finding-filters';
import { attachmentName, isScanActive, scanProgress } from '../../../web/src/features/scans/lib/scan-progress';

const findings = [
  { id: 'a', status: 'open', title: 'Image without alt text', rule_id: 'accessibility.image-alt', location: { type: 'url', url: 'http://127.0.0.1:4100/shop.html' } },
  { id: 'b', status: 'dismissed', title: 'Missing HSTS header', rule_id: 'security.missing-hsts', description: 'No Strict-Transport-Security.' },
  { id: 'c', status: 'fixed', title: 'No llms.txt', rule_id: 'ai_readiness.llms-txt' },
];

describe('filterFindings', () => {
  it('keeps everything with no filter', () => {
    expect(filterFindings(findings, { status: '', text: '' }).map((finding) => finding.id)).toEqual(['a', 'b', 'c']);
  });

  it('filters by status', () => {
    expect(filterFindings(findings, { status: 'dismissed', text: '' }).map((finding) => finding.id)).toEqual(['b']);
  });

  it('matches every word, case-insensitively, in title, rule, description or URL', () => {
    expect(filterFindings(findings, { status: '', text: 'SHOP alt' }).map((finding) => finding.id)).toEqual(['a']);
    expect(filterFindings(findings, { status: '', text: 'strict-transport' }).map((finding) => finding.id)).toEqual(['b']);
    expect(filterFindings(findings, { status: 'open', text: 'hsts' })).toEqual([]);
  });
});

describe('severityQuery', () => {
  it('joins the chosen severities in severity order, and sends none for all or nothing', () => {
    expect(severityQuery(['low', 'critical'])).toBe('critical,low');
    expect(severityQuery([])).toBeUndefined();
    expect(severityQuery(['critical', 'high', 'medium', 'low', 'info'])).toBeUndefined();
    expect(severityQuery(['bogus'])).toBeUndefined();
  });

  it('names detectors in words', () => {
    expect(detectorLabel('ai_readiness')).toBe('AI readiness');
    expect(detectorLabel('security')).toBe('Security');
  });
});

describe('scan progress', () => {
  it('counts the detectors that ended while the scan runs', () => {
    expect(scanProgress({ status: 'running', detectors: ['accessibility', 'security', 'ai_readiness'], progress: { accessibility: 'completed', security: 'running', ai_readiness: 'running' } })).toEqual({ done: 1, total: 3 });
    expect(scanProgress({ status: 'pending', detectors: ['security'] })).toEqual({ done: 0, total: 1 });
  });

  it('counts all of them once the scan ended', () => {
    expect(scanProgress({ status: 'completed', detectors: { security: {}, accessibility: {} } })).toEqual({ done: 2, total: 2 });
    expect(isScanActive('completed')).toBe(false);
    expect(isScanActive('running')).toBe(true);
  });
});

describe('attachmentName', () => {
  it('reads filename, preferring filename*', () => {
    expect(attachmentName('attachment; filename="scan_01.sarif"', 'x')).toBe('scan_01.sarif');
    expect(attachmentName("attachment; filename=plain.csv; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", 'x')).toBe('résumé.pdf');
    expect(attachmentName('attachment; filename=plain.csv', 'x')).toBe('plain.csv');
  });

  it('falls back without a header, and never keeps a path', () => {
    expect(attachmentName(null, 'scan.json')).toBe('scan.json');
    expect(attachmentName('attachment; filename="../../etc/passwd"', 'x')).toBe('passwd');
    expect(attachmentName('attachment', 'scan.json')).toBe('scan.json');
  });
});

describe('crawl problem reasons', () => {
  it('says every reason the API gives in words, statuses included', async () => {
    const { reasonText } = await import('../../../web/src/features/scans/lib/crawl-problem-reasons');
    expect(reasonText('robots_disallowed')).toBe('disallowed by robots.txt');
    expect(reasonText('page_crashed')).toBe('crashed the browser');
    expect(reasonText('blocked_subresource')).toBe('requested by a page and refused by the network guard');
    expect(reasonText('http_404')).toBe('answered HTTP 404');
    expect(reasonText('some_new_reason')).toBe('some new reason');
  });
});
