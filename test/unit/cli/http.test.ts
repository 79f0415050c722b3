import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ScansApi } from '../../../sdk/cli/src/api-client.ts';
import { ApiError, Interrupted } from '../../../sdk/cli/src/errors.ts';
import { HttpClient, type HttpOptions } from '../../../sdk/cli/src/http.ts';
import { API_KEY, FakeApi, PROJECT } from './fake-api.ts';
import { useFakeApi } from './harness.ts';

const api = useFakeApi();

const QUICK_HTTP = { apiKey: API_KEY, retry: { attempts: 3, baseMs: 10, maxMs: 100 }, attemptTimeoutMs: 1_000, userAgent: 'gatehouse-cli/test' } satisfies Omit<HttpOptions, 'baseUrl'>;

function client(options: Partial<HttpOptions> = {}, signal?: AbortSignal): ScansApi {
  return new ScansApi(new HttpClient({ baseUrl: api.fake.baseUrl, ...QUICK_HTTP, ...options }), signal);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: unknown) => error,
  );
}

describe('calls to the API', () => {
  it('sends the key as a bearer token, and a User-Agent', async () => {
    const scanId = api.fake.addCompletedScan('main', []);

    await client().getScan(scanId);

    expect(api.fake.sent('getScan')[0].headers).toMatchObject({ authorization: `Bearer ${API_KEY}`, 'user-agent': 'gatehouse-cli/test' });
  });

  it('retries a 503 and a dropped connection, then takes the answer', async () => {
    const scanId = api.fake.addCompletedScan('main', []);
    api.fake.script('getScan', { status: 503, code: 'service_unavailable' }, { drop: true });

    const scan = await client().getScan(scanId);

    expect(scan.status).toBe('completed');
    expect(api.fake.sent('getScan')).toHaveLength(3);
  });

  it('waits as long as a 429 Retry-After says', async () => {
    const scanId = api.fake.addCompletedScan('main', []);
    api.fake.script('getScan', { status: 429, code: 'rate_limited', headers: { 'Retry-After': '1' } });

    await client({ retry: { attempts: 3, baseMs: 10, maxMs: 5_000 } }).getScan(scanId);

    const [first, retry] = api.fake.sent('getScan');
    // Timers may fire a millisecond early against Date.now().
    expect(retry.at - first.at).toBeGreaterThanOrEqual(990);
  });

  it('waits no longer than its longest backoff, whatever Retry-After asks', async () => {
    const scanId = api.fake.addCompletedScan('main', []);
    api.fake.script('getScan', { status: 503, code: 'service_unavailable', headers: { 'Retry-After': '60' } });

    await client({ retry: { attempts: 2, baseMs: 10, maxMs: 200 } }).getScan(scanId);

    const [first, retry] = api.fake.sent('getScan');
    expect(retry.at - first.at).toBeLessThan(2_000);
  });

  it('retries the POST that starts a scan with the same Idempotency-Key, so a lost answer starts no second scan', async () => {
    api.fake.script('createScan', { status: 502 });

    const created = await client().createScan(PROJECT, { detectors: ['security'] });

    const [first, retry] = api.fake.sent('createScan');
    expect(first.headers['idempotency-key']).toMatch(/^gatehouse-cli-[0-9a-f-]{36}$/);
    expect(retry.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(retry.body).toEqual(first.body);
    expect(created.scan_id).toMatch(/^scn_/);
  });

  it('does not retry a 4xx: the problem comes back at once', async () => {
    const error = await rejection(client().createScan('prj_unknown', {}));

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'project_not_found', title: 'Not Found', detail: 'The project prj_unknown does not exist.', retryable: false });
    expect(api.fake.sent('createScan')).toHaveLength(1);
  });

  it('gives up after its tries with the last error: a 500 still there', async () => {
    api.fake.script('getScan', { status: 500 }, { status: 500 }, { status: 500 });

    const error = await rejection(client().getScan('scn_any'));

    expect(error).toMatchObject({ status: 500, retryable: true });
    expect(api.fake.sent('getScan')).toHaveLength(3);
  });

  it('gives up on a port nobody listens on with a network error (status 0)', async () => {
    const closed = await FakeApi.start();
    const baseUrl = closed.baseUrl;
    await closed.close();

    const error = await rejection(client({ baseUrl }).getScan('scn_any'));

    expect(error).toMatchObject({ status: 0, code: 'network_error', retryable: true });
    expect((error as ApiError).detail).toContain('ECONNREFUSED');
  });

  it('cuts a try that hangs and retries it', async () => {
    const scanId = api.fake.addCompletedScan('main', []);
    api.fake.script('getScan', { hang: true });

    const scan = await client({ attemptTimeoutMs: 300 }).getScan(scanId);

    expect(scan.scan_id).toBe(scanId);
    expect(api.fake.sent('getScan')).toHaveLength(2);
  });

  it("describes an error answer that is not problem+json by its status (a proxy's page)", async () => {
    const proxy = createServer((_req, res) => res.writeHead(403, { 'Content-Type': 'text/html' }).end('<h1>Forbidden by proxy</h1>'));
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    try {
      const error = await rejection(client({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1` }).getScan('scn_1'));

      expect(error).toMatchObject({ status: 403, code: 'http_403', title: 'Forbidden', detail: '<h1>Forbidden by proxy</h1>' });
    } finally {
      proxy.close();
    }
  });

  it('stops at once when the run is interrupted, with the interruption as the error', async () => {
    api.fake.script('getScan', { status: 503 }, { status: 503 });
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(new Interrupted('SIGTERM')), 100);

    const error = await rejection(client({ retry: { attempts: 3, baseMs: 5_000, maxMs: 5_000 } }, stopping.signal).getScan('scn_any'));

    expect(error).toBeInstanceOf(Interrupted);
  });

  it('reads every page of a list', async () => {
    const scanId = api.fake.addCompletedScan('main', [1, 2, 3, 4, 5].map((n) => ({ id: `fnd_${n}`, severity: 'low' as const })));

    const findings = await client().findings(scanId);

    expect(findings.map((item) => item.id)).toEqual(['fnd_1', 'fnd_2', 'fnd_3', 'fnd_4', 'fnd_5']);
    expect(api.fake.sent('findings').map((request) => request.query.get('cursor'))).toEqual([null, '2', '4']);
  });

  it('downloads the SARIF export, following a redirect to the export bucket without the key', async () => {
    const scanId = api.fake.addCompletedScan('main', []);
    api.fake.exportThroughBucket = true;

    const log = JSON.parse(Buffer.from(await client().sarif(scanId)).toString('utf8'));

    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].properties.from).toBe(`/bucket/${scanId}.sarif`);
    expect(api.fake.sent('export')[0].query.get('format')).toBe('sarif');
    expect(api.fake.sent('bucket')[0].headers.authorization).toBeUndefined();
  });
});
