import { describe, expect, it } from 'vitest';
import { ScansApi } from '../../../sdk/cli/src/api-client.ts';
import { Interrupted, ScanNotCompleted } from '../../../sdk/cli/src/errors.ts';
import { HttpClient } from '../../../sdk/cli/src/http.ts';
import { nextInterval, waitForScan, type ProgressEvent } from '../../../sdk/cli/src/poller.ts';
import { API_KEY, PROJECT } from './fake-api.ts';
import { useFakeApi } from './harness.ts';

const api = useFakeApi();

function scansApi(): ScansApi {
  return new ScansApi(new HttpClient({ baseUrl: api.fake.baseUrl, apiKey: API_KEY, retry: { attempts: 2, baseMs: 10, maxMs: 50 }, attemptTimeoutMs: 1_000, userAgent: 'test' }));
}

async function started(): Promise<{ scans: ScansApi; scanId: string }> {
  const scans = scansApi();
  const { scan_id } = await scans.createScan(PROJECT, {});
  return { scans, scanId: scan_id };
}

describe('following a scan', () => {
  it('reports each change once, in order, and returns the scan as it ended', async () => {
    api.fake.plan = { findings: [{ id: 'f1', severity: 'high' }], outcome: 'completed', runningReads: 4 };
    const { scans, scanId } = await started();
    const events: ProgressEvent[] = [];

    const scan = await waitForScan(scans, scanId, { deadline: Date.now() + 10_000, minIntervalMs: 5, maxIntervalMs: 20, onProgress: (event) => events.push(event) });

    expect(scan).toMatchObject({ scan_id: scanId, status: 'completed', risk_score: 27 });
    expect(events.map((event) => (event.type === 'ended' ? `ended ${event.scan.status}` : event.type === 'status' ? event.status : `${event.detector} done`))).toEqual(['pending', 'running', 'accessibility done', 'ended completed']);
    expect(events[1]).toMatchObject({ type: 'status', detectors: ['accessibility', 'security'] });
  });

  it('reads more slowly while nothing changes, never slower than its bound, and quickly again after a change', () => {
    const bounds = { minIntervalMs: 1_000, maxIntervalMs: 5_000 };
    const waits = [1_000];
    for (let read = 0; read < 6; read++) waits.push(nextInterval(waits.at(-1)!, false, bounds));

    expect(waits).toEqual([1_000, 1_500, 2_250, 3_375, 5_000, 5_000, 5_000]);
    expect(nextInterval(5_000, true, bounds)).toBe(1_000);
  });

  it('reads a scan that does not move a bounded number of times', async () => {
    api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };
    const { scans, scanId } = await started();

    await expect(waitForScan(scans, scanId, { deadline: Date.now() + 1_000, minIntervalMs: 20, maxIntervalMs: 60, onProgress: () => {} })).rejects.toThrow(ScanNotCompleted);

    // At least every 60 ms once slowed down (16 reads), at most every 20 ms (51 reads).
    expect(api.fake.sent('getScan').length).toBeGreaterThan(10);
    expect(api.fake.sent('getScan').length).toBeLessThan(30);
  });

  it('gives up at the deadline with a timed_out ScanNotCompleted, reading the scan a last time', async () => {
    api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };
    const { scans, scanId } = await started();
    const began = Date.now();

    const error = await waitForScan(scans, scanId, { deadline: began + 300, minIntervalMs: 1_000, maxIntervalMs: 1_000, onProgress: () => {} }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ScanNotCompleted);
    expect(error).toMatchObject({ scanId, outcome: 'timed_out', message: 'The scan did not end in time (it is running).' });
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(api.fake.sent('getScan')).toHaveLength(2);
  });

  it('stops waiting at once when the run is interrupted', async () => {
    api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };
    const { scans, scanId } = await started();
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(new Interrupted('SIGINT')), 50);

    const error = await waitForScan(scans, scanId, { deadline: Date.now() + 10_000, minIntervalMs: 5_000, maxIntervalMs: 5_000, signal: stopping.signal, onProgress: () => {} }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(Interrupted);
  });
});
