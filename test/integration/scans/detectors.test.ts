import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCrawlOptions, httpPageFetcher } from '#shared/adapters/http/fetch-page';
import { crawl, makeOriginFetcher } from '#shared/scans/crawler/crawl';
import { cvssBaseScore } from '#shared/scans/cvss';
import { severityOfScore } from '#shared/scans/cvss-rating';
import { aiReadinessDetector } from '#shared/scans/detectors/ai-readiness';
import { AI_READINESS_RULES } from '#shared/scans/detectors/ai-readiness-rules';
import { securityDetector } from '#shared/scans/detectors/security';
import { SECURITY_RULES } from '#shared/scans/detectors/security-rules';
import type { CrawlResult, DetectedFinding, DetectorInput, FetchedPage, FindingLocation, OriginFetcher } from '#shared/scans/model';
import { startTestSite, type TestSite } from '../../support/test-site-server';

const OPTIONS = { maxPages: 20, maxBytes: 256 * 1024, timeoutMs: 800, allowLoopback: true };

async function scan(site: TestSite): Promise<DetectorInput> {
  return { target: site.url, crawl: await crawl(site.url, httpCrawlOptions(OPTIONS)), fetchPath: makeOriginFetcher(site.url, httpPageFetcher(OPTIONS)), options: {} };
}

/**
 * The test site is plain http; the https-only rules (HSTS, Secure cookies, mixed content, TLS)
 * are exercised by replaying the same served pages as if fetched over https with weak TLS facts.
 */
function asHttps(input: DetectorInput): DetectorInput {
  const toHttps = (url: string) => url.replace(/^http:/, 'https:');
  const tls = { protocol: 'TLSv1.1', cipher: 'AES128-SHA', valid_to: 'Jan  1 00:00:00 2020 GMT', issuer: 'CN=Acme Test CA', authorized: false, authorization_error: 'CERT_HAS_EXPIRED' };
  const page = (p: FetchedPage): FetchedPage => ({ ...p, url: toHttps(p.url), final_url: toHttps(p.final_url), tls });
  const crawled: CrawlResult = { pages: input.crawl.pages.map(page), problems: input.crawl.problems };
  const fetchPath: OriginFetcher = async (path) => {
    const answer = await input.fetchPath(path);
    return answer && page(answer);
  };
  return { ...input, target: toHttps(input.target), crawl: crawled, fetchPath };
}

const ids = (findings: DetectedFinding[]) => [...new Set(findings.map((f) => f.rule_id))].sort();
const where = (findings: DetectedFinding[], ruleId: string) => findings.filter((f) => f.rule_id === ruleId).map((f) => f.location);
const pathOf = (location: FindingLocation) => new URL(location.url).pathname;

/** The served HTML starting at a 1-based line/column. */
function sliceAt(html: string, line: number, column: number): string {
  const lines = html.split('\n');
  const offset = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column - 1;
  return html.slice(offset);
}

describe('security and ai_readiness detectors against the test site', () => {
  let site: TestSite;
  let broken: DetectorInput;
  let fixed: DetectorInput;
  const found: Record<string, DetectedFinding[]> = {};

  beforeAll(async () => {
    site = await startTestSite({ variant: 'broken', slowMs: 2_000 });
    broken = await scan(site);
    // Detectors fetch single paths (/.env, /robots.txt) lazily, so run them before switching.
    found.broken = [...(await securityDetector.run(broken)), ...(await aiReadinessDetector.run(broken))];
    found.brokenHttps = await securityDetector.run(asHttps(broken));
    site.setVariant('fixed');
    fixed = await scan(site);
    found.fixed = [...(await securityDetector.run(fixed)), ...(await aiReadinessDetector.run(fixed))];
    found.fixedHttps = await securityDetector.run(asHttps(fixed));
  });
  afterAll(async () => {
    await site.close();
  });

  describe('broken variant', () => {
    it('reports the rules the README lists for plain http, and only those', () => {
      expect(ids(found.broken)).toEqual([
        'ai_readiness.missing-ai-policy',
        'ai_readiness.missing-ai-txt',
        'ai_readiness.missing-llms-txt',
        'ai_readiness.robots-txt-no-ai-rules',
        'ai_readiness.undisclosed-ai-content',
        'ai_readiness.undisclosed-chat-widget',
        'security.cookie-missing-httponly',
        'security.cookie-missing-samesite',
        'security.exposed-file',
        'security.missing-content-type-options',
        'security.missing-csp',
        'security.missing-frame-protection',
        'security.missing-referrer-policy',
        'security.server-version-disclosure',
      ]);
    });

    it('reports header findings once per origin, at the target', () => {
      for (const ruleId of ['security.missing-csp', 'security.missing-content-type-options', 'security.missing-frame-protection', 'security.missing-referrer-policy', 'security.server-version-disclosure']) {
        expect(where(found.broken, ruleId).map((l) => l.url)).toEqual([site.url]);
      }
      expect(where(found.broken, 'security.server-version-disclosure')[0].snippet).toBe('server: Apache/2.4.41 (Ubuntu)\nx-powered-by: PHP/7.4.3');
    });

    it('reports one finding per cookie and missing flag, on the page that set it', () => {
      for (const ruleId of ['security.cookie-missing-httponly', 'security.cookie-missing-samesite']) {
        expect(where(found.broken, ruleId).map((l) => [pathOf(l), l.selector])).toEqual([
          ['/', 'header:set-cookie[name="session"]'],
          ['/', 'header:set-cookie[name="tracking"]'],
        ]);
      }
    });

    it('finds the exposed files and no soft-404 false positives', () => {
      expect(where(found.broken, 'security.exposed-file').map(pathOf)).toEqual(['/.env', '/.git/config', '/.git/HEAD']);
      // The snippet proves the file without copying its secrets.
      expect(where(found.broken, 'security.exposed-file')[0].snippet).not.toContain('DB_PASSWORD');
    });

    it('finds the undisclosed chat widget and AI content, pointing at the element', async () => {
      const [chat] = where(found.broken, 'ai_readiness.undisclosed-chat-widget');
      const [content] = where(found.broken, 'ai_readiness.undisclosed-ai-content');
      expect(pathOf(chat)).toBe('/chat.html');
      expect(chat.selector).toBe('div#chat-widget');
      expect(pathOf(content)).toBe('/blog.html');
      const chatHtml = broken.crawl.pages.find((p) => p.url === chat.url)?.body ?? '';
      const blogHtml = broken.crawl.pages.find((p) => p.url === content.url)?.body ?? '';
      expect(sliceAt(chatHtml, chat.line ?? 0, chat.column ?? 0).startsWith('<div id="chat-widget"')).toBe(true);
      expect(sliceAt(blogHtml, content.line ?? 0, content.column ?? 0).startsWith('<article data-ai-generated="true">')).toBe(true);
    });

    it('reports the missing AI files and policy at their URLs', () => {
      expect(where(found.broken, 'ai_readiness.missing-llms-txt').map(pathOf)).toEqual(['/llms.txt']);
      expect(where(found.broken, 'ai_readiness.missing-ai-txt').map(pathOf)).toEqual(['/ai.txt']);
      expect(where(found.broken, 'ai_readiness.robots-txt-no-ai-rules').map(pathOf)).toEqual(['/robots.txt']);
      expect(where(found.broken, 'ai_readiness.missing-ai-policy').map((l) => l.url)).toEqual([site.url]);
    });
  });

  describe('broken variant replayed as https', () => {
    it('adds the https-only rules', () => {
      const httpsOnly = ids(found.brokenHttps).filter((id) => !ids(found.broken).includes(id));
      expect(httpsOnly).toEqual(['security.cookie-missing-secure', 'security.missing-hsts', 'security.mixed-content', 'security.tls-certificate-invalid', 'security.tls-outdated-protocol']);
      expect(where(found.brokenHttps, 'security.cookie-missing-secure').map((l) => l.selector)).toEqual(['header:set-cookie[name="session"]', 'header:set-cookie[name="tracking"]']);
      expect(where(found.brokenHttps, 'security.tls-certificate-invalid')[0].snippet).toContain('CERT_HAS_EXPIRED');
      expect(where(found.brokenHttps, 'security.tls-outdated-protocol')[0].snippet).toBe('TLSv1.1');
    });

    it('points each mixed-content finding at its element in the served HTML', () => {
      const locations = where(found.brokenHttps, 'security.mixed-content');
      const html = broken.crawl.pages.find((p) => p.url.endsWith('/partners.html'))?.body ?? '';
      expect(locations.map(pathOf)).toEqual(Array(4).fill('/partners.html'));
      expect(locations.map((l) => sliceAt(html, l.line ?? 0, l.column ?? 0).slice(0, 7))).toEqual(['<link r', '<script', '<img sr', '<iframe']);
      for (const l of locations) expect(sliceAt(html, l.line ?? 0, l.column ?? 0).startsWith(l.snippet ?? '-')).toBe(true);
      expect(new Set(locations.map((l) => l.selector)).size).toBe(4);
    });
  });

  describe('fixed variant', () => {
    it('no longer reports what it fixed', () => {
      const gone = ids(found.broken).filter((id) => !ids(found.fixed).includes(id));
      expect(gone).toEqual([
        'ai_readiness.missing-ai-policy',
        'ai_readiness.missing-llms-txt',
        'ai_readiness.robots-txt-no-ai-rules',
        'ai_readiness.undisclosed-chat-widget',
        'security.cookie-missing-samesite',
        'security.exposed-file',
        'security.missing-content-type-options',
        'security.missing-csp',
        'security.missing-frame-protection',
        'security.missing-referrer-policy',
        'security.server-version-disclosure',
      ]);
      expect(ids(found.fixedHttps)).not.toContain('security.missing-hsts');
    });

    it('still reports what it left broken, and the weaker replacements', () => {
      expect(ids(found.fixed)).toEqual(expect.arrayContaining(['ai_readiness.undisclosed-ai-content', 'ai_readiness.missing-ai-txt', 'security.weak-csp']));
      expect(where(found.fixed, 'security.cookie-missing-httponly').map((l) => l.selector)).toEqual(['header:set-cookie[name="tracking"]']);
      expect(where(found.fixedHttps, 'security.weak-hsts')[0].snippet).toBe('max-age=3600');
      expect(where(found.fixedHttps, 'security.cookie-missing-secure').map((l) => l.selector)).toEqual(['header:set-cookie[name="tracking"]']);
    });
  });

  describe('robots.txt and policy answers', () => {
    it('reports a missing robots.txt when the path is a soft 404', async () => {
      const soft404: OriginFetcher = async (path) => {
        const answer = await broken.fetchPath(path === '/robots.txt' ? '/no-such-file.txt' : path);
        return answer && { ...answer, url: new URL(path, site.url).href };
      };
      const findings = await aiReadinessDetector.run({ ...broken, fetchPath: soft404 });
      expect(ids(findings)).toContain('ai_readiness.missing-robots-txt');
      expect(ids(findings)).not.toContain('ai_readiness.robots-txt-no-ai-rules');
    });

    it('reports the policy as missing when its linked page does not answer 200', async () => {
      const notFound: OriginFetcher = async (path) => {
        const answer = await fixed.fetchPath(path);
        return path === '/ai-transparency.html' && answer ? { ...answer, status: 404 } : answer;
      };
      const findings = await aiReadinessDetector.run({ ...fixed, fetchPath: notFound });
      expect(where(findings, 'ai_readiness.missing-policy')).toEqual([]);
      expect(findings.find((f) => f.rule_id === 'ai_readiness.missing-ai-policy')?.description).toContain('/ai-transparency.html');
    });
  });
});

describe('rule metadata', () => {
  it('gives every security rule a CVSS 3.1 vector whose score and rating it carries', () => {
    for (const rule of Object.values(SECURITY_RULES)) {
      expect(rule.rule_id).toMatch(/^security\.[a-z]+(-[a-z]+)*$/);
      expect(rule.cvss_vector).toMatch(/^CVSS:3\.1\//);
      expect(rule.cvss_score).toBe(cvssBaseScore(rule.cvss_vector ?? ''));
      expect(rule.severity).toBe(severityOfScore(rule.cvss_score));
      expect(rule.references.length).toBeGreaterThan(0);
    }
  });

  it('gives ai_readiness rules no CVSS and references to the AI Act or standards', () => {
    for (const rule of Object.values(AI_READINESS_RULES)) {
      expect(rule.rule_id).toMatch(/^ai_readiness\.[a-z]+(-[a-z]+)*$/);
      expect(rule.cvss_score).toBe(0);
      expect(rule.references.length).toBeGreaterThan(0);
    }
  });

  it('describes every rule in the detector', () => {
    expect(securityDetector.rules.map((r) => r.rule_id)).toEqual(Object.values(SECURITY_RULES).map((r) => r.rule_id));
    expect(aiReadinessDetector.rules.map((r) => r.rule_id)).toEqual(Object.values(AI_READINESS_RULES).map((r) => r.rule_id));
  });
});
