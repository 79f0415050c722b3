import { afterAll, describe, expect, it } from 'vitest';
import { browserPageRenderer } from '#shared/adapters/browser/page-renderer';
import { InvalidRequestError } from '#shared/domain/errors';
import { accessibilityDetector } from '#shared/scans/detectors/accessibility';
import { accessibilityRules } from '#shared/scans/detectors/accessibility-rules';
import type { DetectedFinding, FetchedPage } from '#shared/scans/model';

const URL = 'https://example.test/page';

function htmlPage(body: string, overrides: Partial<FetchedPage> = {}): FetchedPage {
  return {
    url: URL,
    final_url: URL,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    set_cookies: [],
    content_type: 'text/html; charset=utf-8',
    body,
    truncated: false,
    ...overrides,
  };
}

// One browser for the file; example.test has no address, so a page's subresources fail at once.
const renderer = browserPageRenderer({ allowLoopback: false, resolve: async () => [], timeoutMs: 2_000, maxBytes: 1_000_000, pageTimeoutMs: 20_000, networkIdleMs: 1_000, maxRequestsPerPage: 50, maxBytesPerPage: 5_000_000 });
afterAll(() => renderer.close());

async function scan(pages: FetchedPage[], options: Record<string, unknown> = {}): Promise<DetectedFinding[]> {
  return accessibilityDetector.run({
    target: URL,
    crawl: { pages, problems: [] },
    fetchPath: async () => undefined,
    options,
    renderer,
  });
}

/** 1-based line and column of the first occurrence of `needle` in `text`, counted the way an editor does. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`fixture has no ${needle}`);
  const before = text.slice(0, index);
  return { line: before.split('\n').length, column: index - (before.lastIndexOf('\n') + 1) + 1 };
}

/** A page that passes every WCAG A/AA rule axe can decide without a browser. */
function cleanDocument(main: string, head = ''): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>Fixture</title>${head}</head>`,
    '<body>',
    `<main>${main}</main>`,
    '</body>',
    '</html>',
  ].join('\n');
}

function ruleIds(findings: DetectedFinding[]): string[] {
  return findings.map((f) => f.rule_id);
}

describe('accessibility detector', () => {
  it('reports an image without alt as accessibility.image-alt at the <img> start tag', async () => {
    const body = cleanDocument('<h1>Gallery</h1>\n    <p>Our team:</p>\n    <img src="/team.png" width="10">');
    const expected = positionOf(body, '<img');
    const tagText = '<img src="/team.png" width="10">';

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings)).toEqual(['accessibility.image-alt']);
    const [finding] = findings;
    expect(finding).toMatchObject({
      detector: 'accessibility',
      severity: 'high',
      title: 'Images must have alternative text',
      cvss_score: 0,
      location: {
        type: 'url',
        url: URL,
        selector: 'img',
        snippet: tagText,
        line: expected.line,
        column: expected.column,
        end_line: expected.line,
        // SARIF's endColumn is the column just past the region.
        end_column: expected.column + tagText.length,
      },
    });
    expect(finding.references).toContain('https://www.w3.org/WAI/WCAG22/Understanding/non-text-content');
    expect(finding.references.some((r) => r.startsWith('https://dequeuniversity.com/rules/axe/'))).toBe(true);
    expect(finding.description).toMatch(/^Ensure <img> elements have alternative text/);
    expect(finding.description).toContain('Element does not have an alt attribute');
    expect(finding.remediation).toContain('https://dequeuniversity.com/rules/axe/');
  });

  it('reports a document without lang at the <html> tag', async () => {
    const body = '<!doctype html>\n<html>\n<head><title>No lang</title></head>\n<body><main><p>Hi</p></main></body>\n</html>';

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings)).toEqual(['accessibility.html-has-lang']);
    expect(findings[0].severity).toBe('medium');
    expect(findings[0].location).toMatchObject({ selector: 'html', line: 2, column: 1 });
    expect(findings[0].references).toContain('https://www.w3.org/WAI/WCAG22/Understanding/language-of-page');
  });

  it('leaves line and column out when the element was implied by the parser', async () => {
    const body = '<title>Fragment</title><main><p>No html tag written</p></main>';

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings)).toEqual(['accessibility.html-has-lang']);
    expect(findings[0].location.line).toBeUndefined();
    expect(findings[0].location.column).toBeUndefined();
    expect(findings[0].location.selector).toBe('html');
  });

  it('reports an unlabeled input', async () => {
    const body = cleanDocument('<form><input type="text" name="q" id="q"></form>');
    const expected = positionOf(body, '<input');

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings)).toEqual(['accessibility.label']);
    expect(findings[0].location).toMatchObject({ selector: '#q', ...expected });
  });

  it('reports an empty button and an empty link', async () => {
    const body = cleanDocument('<p><a href="/next"></a></p>\n<button type="button"></button>');

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings).sort()).toEqual(['accessibility.button-name', 'accessibility.link-name']);
    const link = findings.find((f) => f.rule_id === 'accessibility.link-name');
    expect(link?.location).toMatchObject(positionOf(body, '<a href'));
    const button = findings.find((f) => f.rule_id === 'accessibility.button-name');
    expect(button?.location).toMatchObject(positionOf(body, '<button'));
  });

  it('reports one finding per violating element', async () => {
    const body = cleanDocument('<img src="/a.png">\n<img src="/b.png">\n<img src="/c.png" alt="C">');

    const findings = await scan([htmlPage(body)]);

    expect(findings.map((f) => f.location.selector)).toEqual(['img[src="/a.png"]', 'img[src="/b.png"]']);
    expect(findings.map((f) => f.location.line)).toEqual([5, 6]);
  });

  it('does not report duplicate ids: WCAG 2.2 made 4.1.1 obsolete and axe only asks for review of ARIA ones', async () => {
    const body = cleanDocument('<p id="dup">One</p><p id="dup">Two</p>\n<span id="x">a</span><span id="x">b</span><input aria-labelledby="x">');

    const findings = await scan([htmlPage(body)], { wcag_level: 'AAA' });

    expect(findings).toEqual([]);
    const ids = accessibilityRules('AAA').map((r) => r.rule_id);
    expect(ids).not.toContain('accessibility.duplicate-id');
    expect(ids).not.toContain('accessibility.duplicate-id-active');
  });

  it('finds nothing on a clean page', async () => {
    const body = cleanDocument(
      '<h1>Welcome</h1>\n<p>Read <a href="/about">about us</a>.</p>\n<img src="/logo.png" alt="Gatehouse logo">\n' +
        '<form><label for="email">Email</label><input id="email" type="email" autocomplete="email"><button type="submit">Send</button></form>',
    );

    const findings = await scan([htmlPage(body)]);

    expect(findings).toEqual([]);
  });

  it('applies AA-only rules at AA (the default) but not at A', async () => {
    const body = cleanDocument('<p>Zoom me</p>', '<meta name="viewport" content="width=device-width, user-scalable=no">');

    const atDefault = await scan([htmlPage(body)]);
    const atAA = await scan([htmlPage(body)], { wcag_level: 'AA' });
    const atA = await scan([htmlPage(body)], { wcag_level: 'A' });

    expect(ruleIds(atDefault)).toEqual(['accessibility.meta-viewport']);
    expect(ruleIds(atAA)).toEqual(['accessibility.meta-viewport']);
    expect(atAA[0].severity).toBe('low');
    expect(atAA[0].references).toContain('https://www.w3.org/WAI/WCAG22/Understanding/resize-text');
    expect(atA).toEqual([]);
  });

  it('runs the page’s own scripts and event handlers before auditing, as a user’s browser does', async () => {
    // The script sets lang (so no html-has-lang) and adds an image without alt; the load handler
    // adds another. Neither image is in the source, so neither finding has a line.
    const body = [
      '<!doctype html>',
      '<html>',
      '<head><title>Scripted</title>',
      '<script>document.documentElement.setAttribute("lang", "en");</script>',
      '</head>',
      '<body onload="document.querySelector(\'main\').appendChild(Object.assign(document.createElement(\'img\'), { id: \'from-onload\' }))">',
      '<main><p>Static</p></main>',
      '<script>var img = document.createElement("img"); img.id = "from-script"; document.querySelector("main").appendChild(img);</script>',
      '</body>',
      '</html>',
    ].join('\n');

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings)).toEqual(['accessibility.image-alt', 'accessibility.image-alt']);
    expect(findings.map((f) => f.location.selector).sort()).toEqual(['#from-onload', '#from-script']);
    expect(findings.every((f) => f.location.line === undefined)).toBe(true);
  });

  it('reports text whose contrast is too low, which needs layout and computed colours', async () => {
    const body = cleanDocument('<h1>Prices</h1>\n<p class="faint">Cancel any time.</p>', '<style>body { background: #fff; } .faint { color: #bbb; }</style>');
    const expected = positionOf(body, '<p class="faint">');

    const findings = await scan([htmlPage(body)]);

    expect(ruleIds(findings)).toEqual(['accessibility.color-contrast']);
    expect(findings[0]).toMatchObject({ severity: 'medium', location: { selector: 'p', line: expected.line, column: expected.column } });
    expect(findings[0].description).toMatch(/contrast of 1\.9\d?:1|contrast ratio/i);
  });

  it('audits every HTML page, at its final URL, and skips non-HTML bodies', async () => {
    const bad = cleanDocument('<img src="/x.png">');
    const pages = [
      htmlPage(bad, { url: 'https://example.test/a', final_url: 'https://example.test/a/' }),
      htmlPage(bad, { url: 'https://example.test/b', final_url: 'https://example.test/b' }),
      htmlPage('{"img": "<img src=x>"}', { url: 'https://example.test/data', final_url: 'https://example.test/data', content_type: 'application/json' }),
      htmlPage('', { url: 'https://example.test/empty', final_url: 'https://example.test/empty' }),
    ];

    const findings = await scan(pages);

    expect(findings.map((f) => f.location.url)).toEqual(['https://example.test/a/', 'https://example.test/b']);
  });

  it('refuses an unknown wcag_level', async () => {
    await expect(scan([htmlPage(cleanDocument('<p>x</p>'))], { wcag_level: 'AAAA' })).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(scan([], { wcag_level: 2 })).rejects.toBeInstanceOf(InvalidRequestError);
  });
});
