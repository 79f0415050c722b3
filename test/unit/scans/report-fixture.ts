import type { ReportFinding, ScanReport } from '#shared/scans/exports/scan-report';

/** One scan report for the export tests: every detector, every finding status, and text that needs quoting. */

export const TRICKY_TITLE = 'Image "hero, banner" has no alt text,\nso screen readers say "image"';
export const TOP_TITLE = 'Reflected XSS in search parameter';

/** A finding with the dull fields filled in. */
export function finding(overrides: Partial<ReportFinding> & Pick<ReportFinding, 'id' | 'detector' | 'rule_id' | 'severity' | 'title'>): ReportFinding {
  return {
    description: 'A description.',
    location: { type: 'url', url: 'https://shop.example.com/' },
    remediation: 'Fix it.',
    references: [],
    cvss_score: 0,
    status: 'open',
    fingerprint: `fp-${overrides.id}`,
    first_seen_at: '2025-01-10T09:00:00.000Z',
    ...overrides,
  };
}

export function fixture(): ScanReport {
  return {
    scan_id: 'scn_01JEXPORT',
    project: { project_id: 'prj_acme', name: 'Acme Shop', target: 'https://shop.example.com' },
    status: 'completed',
    created_at: '2025-02-01T10:00:00.000Z',
    completed_at: '2025-02-01T10:02:30.000Z',
    duration_seconds: 150,
    risk_score: 78,
    risk_level: 'high',
    detectors: [
      { name: 'security', status: 'completed', risk_score: 90, risk_level: 'critical', summary: { total: 3, critical: 1, high: 1, medium: 0, low: 0, info: 1 } },
      { name: 'accessibility', status: 'completed', risk_score: 40, risk_level: 'medium', summary: { total: 2, critical: 0, high: 0, medium: 2, low: 0, info: 0 } },
      { name: 'ai_readiness', status: 'completed', risk_score: 15, risk_level: 'low', summary: { total: 2, critical: 0, high: 0, medium: 0, low: 1, info: 1 } },
    ],
    findings: [
      finding({
        id: 'fnd_hsts',
        detector: 'security',
        rule_id: 'security.missing-hsts',
        severity: 'high',
        title: 'Strict-Transport-Security header missing',
        // A header finding: no element, so no line or column.
        cvss_score: 7.4,
        cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N',
        references: ['https://owasp.org/www-project-secure-headers/', 'https://www.rfc-editor.org/rfc/rfc6797'],
      }),
      finding({
        id: 'fnd_xss',
        detector: 'security',
        rule_id: 'security.reflected-xss',
        severity: 'critical',
        title: TOP_TITLE,
        location: { type: 'url', url: 'https://shop.example.com/search?q=x', selector: 'form#search input', line: 12, column: 5, end_line: 12, end_column: 40, snippet: '<input name="q" value="x">' },
        cvss_score: 9.6,
        first_seen_at: '2025-02-01T10:01:00.000Z',
      }),
      finding({
        id: 'fnd_banner',
        detector: 'security',
        rule_id: 'security.server-banner',
        severity: 'info',
        title: 'Server header reveals version',
      }),
      finding({
        id: 'fnd_alt',
        detector: 'accessibility',
        rule_id: 'accessibility.image-alt',
        severity: 'medium',
        title: TRICKY_TITLE,
        location: { type: 'url', url: 'https://shop.example.com/', selector: 'img.hero', line: 42, column: 7 },
        remediation: 'Add an alt attribute, e.g. alt="Summer sale, 20% off".',
        references: ['https://www.w3.org/WAI/WCAG22/Understanding/non-text-content'],
      }),
      finding({
        id: 'fnd_alt_fixed',
        detector: 'accessibility',
        rule_id: 'accessibility.image-alt',
        severity: 'medium',
        title: 'Image has no alt text',
        status: 'fixed',
        location: { type: 'url', url: 'https://shop.example.com/about', selector: 'img', line: 3, column: 1 },
      }),
      finding({
        id: 'fnd_llms',
        detector: 'ai_readiness',
        rule_id: 'ai_readiness.missing-llms-txt',
        severity: 'low',
        title: 'No llms.txt',
        location: { type: 'url', url: 'https://shop.example.com/llms.txt' },
        regression: true,
      }),
      finding({
        id: 'fnd_ai_dismissed',
        detector: 'ai_readiness',
        rule_id: 'ai_readiness.ai-disclosure',
        severity: 'info',
        title: 'No AI disclosure',
        status: 'dismissed',
      }),
    ],
    rules: [
      { rule_id: 'security.missing-hsts', detector: 'security', name: 'Missing HSTS', short_description: 'HSTS header missing', full_description: 'The site does not send Strict-Transport-Security.', help: 'Send Strict-Transport-Security: max-age=31536000.', help_url: 'https://owasp.org/www-project-secure-headers/', default_severity: 'high' },
      { rule_id: 'security.reflected-xss', detector: 'security', name: 'Reflected XSS', short_description: 'Reflected XSS', full_description: 'Input is reflected unescaped.', help: 'Escape output.', default_severity: 'critical' },
      // No finding in this scan: its security-severity comes from its default severity.
      { rule_id: 'security.missing-csp', detector: 'security', name: 'Missing CSP', short_description: 'No Content-Security-Policy', full_description: 'No CSP header.', help: 'Send a CSP.', default_severity: 'medium' },
      { rule_id: 'accessibility.image-alt', detector: 'accessibility', name: 'Image alt', short_description: 'Images need alt text', full_description: 'WCAG 1.1.1.', help: 'Add alt.', help_url: 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content', default_severity: 'medium' },
      { rule_id: 'ai_readiness.missing-llms-txt', detector: 'ai_readiness', name: 'llms.txt', short_description: 'No llms.txt', full_description: 'No llms.txt file.', help: 'Publish /llms.txt.', default_severity: 'low' },
      // security.server-banner and ai_readiness.ai-disclosure are deliberately absent.
    ],
    tool: { name: 'Gatehouse', version: '0.1.0', information_uri: 'https://gatehouse.example.com' },
  };
}
