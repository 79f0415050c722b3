import { describe, expect, it } from 'vitest';
import { ScansApi } from '../../../sdk/cli/src/api-client.ts';
import { BASELINE_LOOKBACK, findBaseline } from '../../../sdk/cli/src/baseline.ts';
import { HttpClient } from '../../../sdk/cli/src/http.ts';
import { API_KEY, PROJECT } from './fake-api.ts';
import { useFakeApi } from './harness.ts';

const api = useFakeApi();

function scansApi(): ScansApi {
  return new ScansApi(new HttpClient({ baseUrl: api.fake.baseUrl, apiKey: API_KEY, retry: { attempts: 2, baseMs: 10, maxMs: 50 }, attemptTimeoutMs: 1_000, userAgent: 'test' }));
}

describe('the scan --new-only compares with', () => {
  it('is the last completed scan of the same branch started before this one, with its finding ids', async () => {
    api.fake.addCompletedScan('main', [{ id: 'old', severity: 'high' }]);
    const last = api.fake.addCompletedScan('main', [{ id: 'f1', severity: 'high' }, { id: 'f2', severity: 'low' }, { id: 'f3', severity: 'info' }]);
    api.fake.addCompletedScan('feature', [{ id: 'f9', severity: 'high' }]);
    api.fake.addCompletedScan(undefined, []);
    const current = api.fake.addCompletedScan('main', []);
    api.fake.addCompletedScan('main', [{ id: 'later', severity: 'high' }]);

    const baseline = await findBaseline(scansApi(), PROJECT, 'main', current);

    expect(baseline?.scan.scan_id).toBe(last);
    expect(baseline?.findingIds).toEqual(new Set(['f1', 'f2', 'f3']));
  });

  it('is none when the branch has no earlier completed scan', async () => {
    api.fake.addCompletedScan('feature', []);
    const current = api.fake.addCompletedScan('main', []);

    expect(await findBaseline(scansApi(), PROJECT, 'main', current)).toBeUndefined();
  });

  it(`is looked for among the last ${BASELINE_LOOKBACK} earlier completed scans only, page by page`, async () => {
    api.fake.addCompletedScan('main', []);
    for (let n = 0; n < BASELINE_LOOKBACK; n++) api.fake.addCompletedScan('feature', []);
    const current = api.fake.addCompletedScan('main', []);

    expect(await findBaseline(scansApi(), PROJECT, 'main', current)).toBeUndefined();
    expect(api.fake.sent('getScan')).toHaveLength(BASELINE_LOOKBACK);
    expect(api.fake.sent('listScans').every((request) => request.query.get('status') === 'completed')).toBe(true);
  });
});
