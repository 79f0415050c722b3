import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { LocalUser } from '#lib/local/oidc/local-users';
import { startRuntime, type Runtime } from '#lib/local/runtime';

export interface TestRuntime extends Runtime {
  keys: { a: string; b: string };
}

/** The whole local runtime (gateway, authorizer, workers) on the shared engines, on a free port. */
export async function startTestRuntime(label: string, options: { workers?: boolean; allowLoopback?: boolean; authorizerCacheSeconds?: number; users?: LocalUser[] } = {}): Promise<TestRuntime> {
  const keys = { a: `gh_test_${randomBytes(12).toString('hex')}`, b: `gh_test_${randomBytes(12).toString('hex')}` };
  const suffix = randomBytes(3).toString('hex');
  const runtime = await startRuntime({
    port: 0,
    dataDir: '',
    inMemory: true,
    engines: inject('engines'),
    name: `e2e-${label}-${suffix}`,
    apiKeys: [
      { tenantId: `tenant-a-${suffix}`, key: keys.a },
      { tenantId: `tenant-b-${suffix}`, key: keys.b },
    ],
    log: () => undefined,
    workers: options.workers,
    authorizerCacheSeconds: options.authorizerCacheSeconds,
    users: options.users,
    smtpPort: 0,
  });
  // `allowLoopback: false` runs the webhook deliverer and the scanner as on AWS (SSRF tests): the
  // handlers read these per call, and each test file runs in its own process.
  if (options.allowLoopback === false) Object.assign(process.env, { WEBHOOK_ALLOW_LOOPBACK: 'false', SCAN_ALLOW_LOOPBACK: 'false' });
  return { ...runtime, keys };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small HTTP client for the API under test (fetch over loopback, bounded by a timeout). */
export function apiClient(baseUrl: string, key: string | undefined) {
  return async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON; keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The scan once it ended (completed, failed or cancelled), read through `api` every 250 ms. */
export function scanEnded(api: ReturnType<typeof apiClient>, scanId: string, timeoutMs = 90_000): Promise<any> {
  return eventually(async () => {
    const { body } = await api('GET', `/scans/${scanId}`);
    return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, timeoutMs, 250);
}

/** The task once it ended (complete, failed or cancelled), read through `api`. */
export function taskEnded(api: ReturnType<typeof apiClient>, taskId: string, timeoutMs = 30_000): Promise<any> {
  return eventually(async () => {
    const { body } = await api('GET', `/tasks/${taskId}`);
    return ['complete', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
  }, timeoutMs);
}
