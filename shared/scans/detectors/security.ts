import type { DetectedFinding, Detector, DetectorInput, FetchedPage } from '#shared/scans/model';
import { attr, elementLocation, elementsOf, parseHtml } from '#shared/scans/crawler/html';
import { describeRule, findingOf, headerSelector, isRealFile, type Rule } from '#shared/scans/detectors/rule-helpers';
import { SECURITY_RULES } from '#shared/scans/detectors/security-rules';

/**
 * Passive security checks of a crawled site: response headers (per origin, judged on the
 * target's own answer so counts do not scale with page count), cookies and mixed content (per
 * page), TLS facts, and a handful of files that should never be public.
 */

/** Files checked on every origin, each with what its real content looks like (soft 404s are HTML). */
const EXPOSED_FILES: { path: string; looksReal: (body: string) => boolean }[] = [
  { path: '/.env', looksReal: (body) => /^\s*(export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=.*$/m.test(body) },
  { path: '/.git/config', looksReal: (body) => body.includes('[core]') },
  { path: '/.git/HEAD', looksReal: (body) => /^(ref: refs\/|[0-9a-f]{40}\s*$)/.test(body) },
  { path: '/backup.zip', looksReal: (body) => body.startsWith('PK\u0003\u0004') },
  { path: '/db.sql', looksReal: (body) => /(CREATE TABLE|INSERT INTO|-- MySQL dump|PostgreSQL database dump)/i.test(body) },
  { path: '/.DS_Store', looksReal: (body) => body.slice(4, 8) === 'Bud1' },
  { path: '/wp-config.php.bak', looksReal: (body) => /DB_PASSWORD|<\?php/.test(body) },
];

const isHttps = (page: FetchedPage) => page.final_url.startsWith('https:');
const WEAK_PROTOCOLS = new Set(['SSLv2', 'SSLv3', 'TLSv1', 'TLSv1.1']);
const HSTS_MIN_AGE = 15_552_000;

export const securityDetector: Detector = {
  name: 'security',
  rules: Object.values(SECURITY_RULES).map(describeRule),
  async run(input: DetectorInput): Promise<DetectedFinding[]> {
    const [front] = input.crawl.pages;
    const findings = front ? [...originFindings(input.target, front), ...tlsFindings(input.target, front)] : [];
    for (const page of input.crawl.pages) findings.push(...cookieFindings(page), ...mixedContentFindings(page));
    findings.push(...(await exposedFileFindings(input)));
    return findings;
  },
};

function originFindings(target: string, page: FetchedPage): DetectedFinding[] {
  const R = SECURITY_RULES;
  const at = (header: string, snippet?: string) => ({ type: 'url' as const, url: target, selector: headerSelector(header), ...(snippet ? { snippet } : {}) });
  const h = page.headers;
  const findings: DetectedFinding[] = [];

  const policies = contentSecurityPolicies(page);
  if (policies.length === 0) findings.push(findingOf(R.missingCsp, at('content-security-policy')));
  const weak = policies.find(allowsUnsafeScripts);
  if (weak) findings.push(findingOf(R.weakCsp, at('content-security-policy', weak)));

  if (isHttps(page)) {
    const hsts = h['strict-transport-security'];
    const maxAge = hsts === undefined ? undefined : Number(/max-age\s*=\s*"?(\d+)/i.exec(hsts)?.[1] ?? 0);
    if (maxAge === undefined) findings.push(findingOf(R.missingHsts, at('strict-transport-security')));
    else if (maxAge < HSTS_MIN_AGE) findings.push(findingOf(R.weakHsts, at('strict-transport-security', hsts), `max-age is ${maxAge}.`));
  }
  if ((h['x-content-type-options'] ?? '').trim().toLowerCase() !== 'nosniff') findings.push(findingOf(R.missingNosniff, at('x-content-type-options')));

  const xfo = (h['x-frame-options'] ?? '').trim().toLowerCase();
  const headerPolicies = (h['content-security-policy'] ?? '').toLowerCase();
  if (xfo !== 'deny' && xfo !== 'sameorigin' && !/(^|[;,]\s*)frame-ancestors\b/.test(headerPolicies)) {
    findings.push(findingOf(R.missingFrameProtection, at('x-frame-options')));
  }
  const referrer = (h['referrer-policy'] ?? '').trim().toLowerCase();
  if (referrer === '' || referrer.split(',').pop()?.trim() === 'unsafe-url') findings.push(findingOf(R.missingReferrerPolicy, at('referrer-policy')));

  const disclosed = ['server', 'x-powered-by'].filter((name) => /\d+\.\d+/.test(h[name] ?? ''));
  if (disclosed.length > 0) {
    const snippet = disclosed.map((name) => `${name}: ${h[name]}`).join('\n');
    findings.push(findingOf(R.versionDisclosure, { type: 'url', url: target, selector: headerSelector('server'), snippet }));
  }
  return findings;
}

/** Header policies (a comma joins repeated headers) plus <meta http-equiv> ones from the page. */
function contentSecurityPolicies(page: FetchedPage): string[] {
  const fromHeader = (page.headers['content-security-policy'] ?? '').split(',');
  const fromMeta = elementsOf(parseHtml(page.body).document)
    .filter((e) => e.tagName === 'meta' && attr(e, 'http-equiv')?.toLowerCase() === 'content-security-policy')
    .map((e) => attr(e, 'content') ?? '');
  return [...fromHeader, ...fromMeta].map((p) => p.trim()).filter((p) => p !== '');
}

function allowsUnsafeScripts(policy: string): boolean {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().toLowerCase().split(/\s+/);
    if (name && !directives.has(name)) directives.set(name, values);
  }
  const sources = directives.get('script-src') ?? directives.get('default-src');
  if (!sources) return false;
  if (sources.includes("'unsafe-eval'")) return true;
  // CSP2+ browsers ignore 'unsafe-inline' when a nonce, hash or 'strict-dynamic' is present.
  const neutralised = sources.some((s) => s.startsWith("'nonce-") || /^'sha(256|384|512)-/.test(s) || s === "'strict-dynamic'");
  return sources.includes("'unsafe-inline'") && !neutralised;
}

function tlsFindings(target: string, page: FetchedPage): DetectedFinding[] {
  if (!isHttps(page) || !page.tls) return [];
  const tls = page.tls;
  const findings: DetectedFinding[] = [];
  const at = { type: 'url' as const, url: target, selector: 'tls' };
  const expired = tls.valid_to !== undefined && Date.parse(tls.valid_to) < Date.now();
  if (!tls.authorized || expired) {
    const why = [tls.authorization_error, expired ? `expired ${tls.valid_to}` : undefined, tls.issuer ? `issuer ${tls.issuer}` : undefined].filter(Boolean).join('; ');
    findings.push(findingOf(SECURITY_RULES.tlsCertificate, { ...at, selector: 'tls:certificate', snippet: why }, why ? `(${why})` : undefined));
  }
  if (tls.protocol && WEAK_PROTOCOLS.has(tls.protocol)) {
    findings.push(findingOf(SECURITY_RULES.tlsProtocol, { ...at, selector: 'tls:protocol', snippet: tls.protocol }, `Negotiated ${tls.protocol}.`));
  }
  return findings;
}

function cookieFindings(page: FetchedPage): DetectedFinding[] {
  const findings: DetectedFinding[] = [];
  const seen = new Set<string>();
  for (const cookie of page.set_cookies) {
    const [pair, ...attributes] = cookie.split(';');
    const name = pair.split('=')[0].trim();
    const flags = new Set(attributes.map((a) => a.split('=')[0].trim().toLowerCase()));
    const checks: [Rule, boolean][] = [
      [SECURITY_RULES.cookieSecure, isHttps(page) && !flags.has('secure')],
      [SECURITY_RULES.cookieHttpOnly, !flags.has('httponly')],
      [SECURITY_RULES.cookieSameSite, !flags.has('samesite')],
    ];
    for (const [cookieRule, missing] of checks) {
      const key = `${cookieRule.rule_id}\n${name}`;
      if (!missing || seen.has(key)) continue;
      seen.add(key);
      const location = { type: 'url' as const, url: page.final_url, selector: headerSelector('set-cookie', name), snippet: cookie.slice(0, 200) };
      findings.push(findingOf(cookieRule, location, `Cookie: ${name}.`));
    }
  }
  return findings;
}

/** The attribute that loads a sub-resource, per element kind the rule covers. */
function loadedUrl(tag: string, element: Parameters<typeof attr>[0]): string | undefined {
  if (['script', 'img', 'iframe', 'audio', 'video', 'source', 'embed'].includes(tag)) return attr(element, 'src');
  if (tag === 'link' && /\b(stylesheet|icon|preload|modulepreload)\b/i.test(attr(element, 'rel') ?? '')) return attr(element, 'href');
  if (tag === 'object') return attr(element, 'data');
  return undefined;
}

function mixedContentFindings(page: FetchedPage): DetectedFinding[] {
  if (!isHttps(page)) return [];
  const parsed = parseHtml(page.body);
  const findings: DetectedFinding[] = [];
  for (const element of elementsOf(parsed.document)) {
    const url = loadedUrl(element.tagName, element)?.trim();
    if (!url || !/^http:\/\//i.test(url)) continue;
    findings.push(findingOf(SECURITY_RULES.mixedContent, elementLocation(page.final_url, element, parsed.source), `<${element.tagName}> loads ${url}.`));
  }
  return findings;
}

async function exposedFileFindings(input: DetectorInput): Promise<DetectedFinding[]> {
  const answers = await Promise.all(EXPOSED_FILES.map((file) => input.fetchPath(file.path)));
  const findings: DetectedFinding[] = [];
  EXPOSED_FILES.forEach((file, index) => {
    const page = answers[index];
    if (!page || !isRealFile(page) || !file.looksReal(page.body)) return;
    // Show that the file is real without copying its secrets into our findings store.
    const snippet = `${file.path}: HTTP ${page.status}, ${page.content_type || 'no content type'}, ${page.body.length} characters`;
    findings.push(findingOf(SECURITY_RULES.exposedFile, { type: 'url', url: new URL(file.path, input.target).href, snippet }, `${file.path} is served.`));
  });
  return findings;
}
