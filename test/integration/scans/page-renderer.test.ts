import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPageRenderer } from '#shared/adapters/browser/page-renderer';
import { accessibilityDetector } from '#shared/scans/detectors/accessibility';
import type { FetchedPage, PageProblem } from '#shared/scans/model';

/**
 * The browser the accessibility detector renders pages in (headless Chromium from
 * @sparticuz/chromium), against a loopback site: scripts run and their content is audited, every
 * request goes through the SSRF guard, and a page that hangs or crashes fails alone.
 */

// metadata.test resolves to the cloud metadata address, which the guard refuses even where loopback is allowed.
const REFUSED_HOST = 'metadata.test';
const resolve = async (host: string) => (host === REFUSED_HOST ? ['169.254.169.254'] : ['127.0.0.1']);

const hits: string[] = [];
let base = '';
const server = http.createServer((request, response) => {
  hits.push(request.url ?? '');
  const path = request.url ?? '/';
  if (path === '/content.json') {
    // Late on purpose: the audit must wait for what the page renders after load.
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ heading: 'Our team', photo: '/team.png' }));
    }, 400);
    return;
  }
  if (path === '/to-metadata') {
    response.writeHead(302, { location: `http://${REFUSED_HOST}/latest/meta-data/` });
    return response.end();
  }
  if (path === '/hop') {
    response.writeHead(301, { location: '/style.css' });
    return response.end();
  }
  if (path === '/style.css') {
    response.writeHead(200, { 'content-type': 'text/css' });
    return response.end('.late { color: #ccc; background: #fff; }');
  }
  response.writeHead(404, { 'content-type': 'text/plain' });
  response.end('not here');
});

const renderer = browserPageRenderer({ allowLoopback: true, resolve, timeoutMs: 3_000, maxBytes: 1_000_000, pageTimeoutMs: 10_000, networkIdleMs: 2_000, maxRequestsPerPage: 20, maxBytesPerPage: 5_000_000 });

beforeAll(async () => {
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await renderer.close();
  await new Promise((closed) => server.close(closed));
});

function page(path: string, body: string): FetchedPage {
  const url = `${base}${path}`;
  return { url, final_url: url, status: 200, headers: { 'content-type': 'text/html' }, set_cookies: [], content_type: 'text/html', body, truncated: false };
}

const doc = (body: string, head = '') => `<!doctype html><html lang="en"><head><title>Fixture</title>${head}</head><body><main>${body}</main></body></html>`;

describe('page renderer', () => {
  it('audits what a single-page app renders after load (data fetched late)', async () => {
    const spa = page('/app', doc('<div id="root">Loading…</div><script>fetch("/content.json").then((r) => r.json()).then((c) => { document.getElementById("root").innerHTML = `<h1>${c.heading}</h1><img src="${c.photo}">`; });</script>'));

    const findings = await accessibilityDetector.run({ target: spa.url, crawl: { pages: [spa], problems: [] }, fetchPath: async () => undefined, options: {}, renderer });

    expect(findings.map((f) => [f.rule_id, f.location.selector, f.location.line])).toEqual([['accessibility.image-alt', 'img', undefined]]);
    expect(hits).toContain('/content.json');
  });

  it('sends every request of the page through the SSRF guard: subresources, redirects, fetch and XHR', async () => {
    hits.length = 0;
    const probe = page(
      '/probe',
      doc(
        `<img src="http://${REFUSED_HOST}/img.png" alt="x"><iframe title="x" src="http://${REFUSED_HOST}/frame"></iframe><p id="out">waiting</p>` +
          `<script src="http://${REFUSED_HOST}/app.js"></script>` +
          `<script>Promise.allSettled([fetch("http://${REFUSED_HOST}/latest/"), fetch("/to-metadata"), new Promise((ok, no) => { const x = new XMLHttpRequest(); x.open("GET", "http://${REFUSED_HOST}/xhr"); x.onload = ok; x.onerror = no; x.send(); })]).then((r) => { document.getElementById("out").textContent = r.map((o) => o.status).join(","); });</script>`,
        `<link rel="stylesheet" href="http://${REFUSED_HOST}/site.css"><link rel="stylesheet" href="/hop">`,
      ),
    );

    const outcome = await renderer.evaluate(probe, { libraries: [], run: () => ({ out: document.getElementById('out')!.textContent, late: getComputedStyle(document.body).fontSize }), arg: null });

    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    // Every request failed in the page as a network error would.
    expect(outcome.value.out).toBe('rejected,rejected,rejected');
    expect(new Set(outcome.blocked_requests)).toEqual(
      new Set(['img.png', 'frame', 'app.js', 'latest/', 'xhr', 'site.css', 'latest/meta-data/'].map((p) => `http://${REFUSED_HOST}/${p}`)),
    );
    // The loopback site saw the redirects (followed hop by hop through the guard), never the refused host's paths.
    expect(hits.sort()).toEqual(['/hop', '/style.css', '/to-metadata']);
  });

  it('fails a page that never finishes, and renders the next one in a fresh browser', async () => {
    const hung = page('/spin', doc('<p>spin</p><script>for (;;) {}</script>'));
    const fine = page('/fine', doc('<p>fine</p>'));

    const started = Date.now();
    const first = await renderer.evaluate(hung, { libraries: [], run: () => 'never', arg: null });
    const second = await renderer.evaluate(fine, { libraries: [], run: () => document.querySelector('p')!.textContent, arg: null });

    expect(first).toMatchObject({ ok: false, reason: 'render_timeout' });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(second).toEqual({ ok: true, value: 'fine', blocked_requests: [] });
  });

  it('fails a page that exhausts memory alone, and the detector reports it and audits the rest', async () => {
    const bomb = page('/bomb', doc('<p>bomb</p><script>const hoard = []; for (;;) hoard.push(new Array(1e6).fill(hoard.length));</script>'));
    const bad = page('/bad', doc('<img src="/x.png">'));
    const problems: PageProblem[] = [];

    const findings = await accessibilityDetector.run({ target: bomb.url, crawl: { pages: [bomb, bad], problems: [] }, fetchPath: async () => undefined, options: {}, renderer, reportProblem: (p) => problems.push(p) });

    expect(problems).toEqual([{ url: bomb.url, reason: 'page_crashed', detail: expect.any(String) }]);
    expect(findings.map((f) => [f.rule_id, f.location.url])).toEqual([['accessibility.image-alt', bad.url]]);
  });

  it('reports the pages left when the run is out of time, and what a page tried to reach', async () => {
    const first = page('/first', doc(`<img src="http://${REFUSED_HOST}/pixel.gif" alt="">`));
    const second = page('/second', doc('<img src="/x.png">'));
    const problems: PageProblem[] = [];
    let calls = 0;
    const deadline = Date.now() + 60_000;

    await accessibilityDetector.run({
      target: first.url,
      crawl: { pages: [first, second], problems: [] },
      fetchPath: async () => undefined,
      options: {},
      renderer,
      // The clock runs out after the first page.
      get deadline() {
        return calls++ === 0 ? deadline : Date.now() - 1;
      },
      reportProblem: (p) => problems.push(p),
    });

    expect(problems.map((p) => [p.url, p.reason])).toEqual([
      [`http://${REFUSED_HOST}/pixel.gif`, 'blocked_subresource'],
      [second.url, 'scan_time_exhausted'],
    ]);
  });

  it('fails the run, saying why, when no page could be rendered at all (a browser that cannot start)', async () => {
    const broken = browserPageRenderer({ allowLoopback: true, resolve, timeoutMs: 1_000, maxBytes: 1_000, pageTimeoutMs: 5_000, networkIdleMs: 100, maxRequestsPerPage: 1, maxBytesPerPage: 1_000, launch: async () => Promise.reject(new Error('no browser on this machine')) });
    const pages = [page('/a', doc('<p>a</p>')), page('/b', doc('<p>b</p>'))];
    const problems: PageProblem[] = [];

    const run = accessibilityDetector.run({ target: pages[0].url, crawl: { pages, problems: [] }, fetchPath: async () => undefined, options: {}, renderer: broken, reportProblem: (p) => problems.push(p) });

    await expect(run).rejects.toThrow(/^No page could be rendered in the browser: http:\/\/127\.0\.0\.1:\d+\/a: render_failed \(no browser on this machine\)/);
    expect(problems.map((p) => p.reason)).toEqual(['render_failed', 'render_failed']);
  });

  it('gives a page no WebSocket and no more requests than its budget', async () => {
    const greedy = page(
      '/greedy',
      doc('<p id="ws">?</p><p id="n">?</p><script>const s = new WebSocket("ws://127.0.0.1:9/"); s.onerror = s.onclose = () => { document.getElementById("ws").textContent = "closed"; }; Promise.allSettled(Array.from({ length: 30 }, (_, i) => fetch(`/style.css?i=${i}`))).then((r) => { document.getElementById("n").textContent = String(r.filter((o) => o.status === "fulfilled").length); });</script>'),
    );

    const outcome = await renderer.evaluate(greedy, { libraries: [], run: () => [document.getElementById('ws')!.textContent, document.getElementById('n')!.textContent], arg: null });

    expect(outcome).toMatchObject({ ok: true, value: ['closed', '20'] });
  });
});
