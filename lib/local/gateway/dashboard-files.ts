/**
 * Serves the built dashboard (web/dist) at `/` beside the API, as CloudFront does on AWS: hashed
 * assets cached for good, index.html revalidated, extension-less paths answered with index.html
 * (the app routes them), `/config.json` built from this runtime, and the browser security headers.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { DASHBOARD_DIST_DIR } from '#lib/bundling/dashboard-build';
import { problemResponse } from '#shared/http/problem';
import { inboundMailAvailable } from '#shared/config/inbound-mail';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** The same policy CloudFront's response headers policy sets on AWS. */
export const DASHBOARD_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

const NOT_DASHBOARD = [/^\/v\d+(\/|$)/, /^\/oidc(\/|$)/, /^\/health\/?$/];

/**
 * GET or HEAD of a path the API, the OpenID provider and /health do not own: a file of the app
 * (a name with an extension), or a page of it asked for by a browser (`Accept: text/html`). An API
 * client's request for any other path (`curl /tasks`, `fetch('/v2/tasks')`) stays the API's 404
 * route_not_found, as the API's own origin answers it on AWS.
 */
export function isDashboardRequest(method: string, pathname: string, accept = ''): boolean {
  if ((method !== 'GET' && method !== 'HEAD') || NOT_DASHBOARD.some((pattern) => pattern.test(pathname))) return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return lastSegment.includes('.') || /\btext\/html\b/i.test(accept);
}

/** `/config.json` for this runtime: the API on the same origin, sign-in at the embedded provider, inbound mail unless GATEHOUSE_INBOUND_MAIL=off. */
export function dashboardConfig(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  return { apiBaseUrl: '/v1', inboundMail: inboundMailAvailable(env), oidc: { issuer: env.GATEHOUSE_OIDC_ISSUER ?? '', clientId: env.GATEHOUSE_OIDC_CLIENT_ID ?? '', scope: 'openid email profile' } };
}

function answer(response: ServerResponse, method: string, status: number, headers: Record<string, string>, body: Buffer | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { ...DASHBOARD_SECURITY_HEADERS, ...headers, 'Content-Length': String(bytes.length) });
  response.end(method === 'HEAD' ? undefined : bytes);
}

function text(response: ServerResponse, method: string, status: number, message: string): void {
  answer(response, method, status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, `${message}\n`);
}

/** The file under `distDir` a URL path names, or a reason it names none. */
function locate(distDir: string, pathname: string): { file: string } | 'refused' | 'missing' {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 'refused';
  }
  // Encoded slashes and dots, backslashes and NULs could walk out of dist: refused, never resolved.
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) return 'refused';
  const file = resolve(distDir, `.${decoded}`);
  if (file !== distDir && !file.startsWith(distDir + sep)) return 'refused';
  return existsSync(file) && statSync(file).isFile() ? { file } : 'missing';
}

function serveFile(response: ServerResponse, method: string, distDir: string, file: string): void {
  const immutable = file.startsWith(join(distDir, 'assets') + sep);
  const headers = {
    'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': String(statSync(file).size),
    // Hashed names change with their content; everything else (index.html) is asked for again.
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  response.writeHead(200, { ...DASHBOARD_SECURITY_HEADERS, ...headers });
  if (method === 'HEAD') return void response.end();
  createReadStream(file).on('error', () => response.destroy()).pipe(response);
}

/** Answers a dashboard request (isDashboardRequest) from `distDir`. */
export function serveDashboard(request: IncomingMessage, response: ServerResponse, pathname: string, distDir = DASHBOARD_DIST_DIR): void {
  request.resume();
  const method = (request.method ?? 'GET').toUpperCase();
  if (pathname === '/config.json') {
    return answer(response, method, 200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }, JSON.stringify(dashboardConfig()));
  }
  const index = join(distDir, 'index.html');
  const found = locate(distDir, pathname === '/' ? '/index.html' : pathname);
  if (found === 'refused') return text(response, method, 400, 'Bad request.');
  if (found !== 'missing') return serveFile(response, method, distDir, found.file);
  // A path with an extension is a file that is not there (answered as the API answers a path it
  // does not know, so a client cannot tell the two apart); any other path is one of the app's pages.
  if (extname(pathname)) {
    const notFound = problemResponse({ status: 404, code: 'route_not_found', detail: `No route matches ${method} ${pathname}.` });
    return answer(response, method, 404, notFound.headers as Record<string, string>, notFound.body);
  }
  if (!existsSync(index)) return text(response, method, 404, 'The dashboard is not built yet: `npm start` builds it.');
  serveFile(response, method, distDir, index);
}
