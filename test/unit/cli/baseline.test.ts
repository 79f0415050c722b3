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
  it('is, without a baseline branch (a push), the last completed scan of the same branch started before this one, with its finding ids', async () => {
    api.fake.addCompletedScan('main', [{ id: 'old', severity: 'high' }]);
    const last = api.fake.addCompletedScan('main', [{ id: 'f1', severity: 'high' }, { id: 'f2', severity: 'low' }, { id: 'f3', severity: 'info' }]);
    api.fake.addCompletedScan('feature', [{ id: 'f9', severity: 'high' }]);
    api.fake.addCompletedScan(undefined, []);
    const current = api.fake.addCompletedScan('main', []);
    api.fake.addCompletedScan('main', [{ id: 'later', severity: 'high' }]);

    const baseline = await findBaseline(scansApi(), PROJECT, { branch: 'main' }, current);

    expect(baseline).toMatchObject({ scan: { scan_id: last }, branch: 'main', reason: 'same_branch' });
    expect(baseline?.findingIds).toEqual(new Set(['f1', 'f2', 'f3']));
  });

  it('is, with a baseline branch, the last completed scan of the baseline branch started before this one', async () => {
    api.fake.addCompletedScan('main', [{ id: 'old', severity: 'high' }]);
    const last = api.fake.addCompletedScan('main', [{ id: 'f1', severity: 'high' }, { id: 'f2', severity: 'low' }]);
    api.fake.addCompletedScan('feature-y', []);
    const current = api.fake.addCompletedScan('feature-x', []);
    api.fake.addCompletedScan('main', [{ id: 'later', severity: 'high' }]);

    const baseline = await findBaseline(scansApi(), PROJECT, { branch: 'feature-x', baselineBranch: 'main' }, current);

    expect(baseline).toMatchObject({ scan: { scan_id: last }, branch: 'main', reason: 'baseline_branch' });
    expect(baseline?.findingIds).toEqual(new Set(['f1', 'f2']));
    expect(api.fake.sent('findings')).toHaveLength(1);
  });

  it('is the last scan of the baseline branch even when the same branch has a newer one, so that a re-run cannot pass what a commit added', async () => {
    const onMain = api.fake.addCompletedScan('main', [{ id: 'f1', severity: 'high' }]);
    // The pull request's earlier run, which failed on f2 but completed.
    api.fake.addCompletedScan('feature-x', [{ id: 'f1', severity: 'high' }, { id: 'f2', severity: 'high' }]);
    const current = api.fake.addCompletedScan('feature-x', []);

    const baseline = await findBaseline(scansApi(), PROJECT, { branch: 'feature-x', baselineBranch: 'main' }, current);

    expect(baseline).toMatchObject({ scan: { scan_id: onMain }, branch: 'main', reason: 'baseline_branch' });
    expect(baseline?.findingIds).toEqual(new Set(['f1']));
    expect(api.fake.sent('findings')).toHaveLength(1);
  });

  it('falls back to the last scan of the same branch when the baseline branch has none before this one', async () => {
    api.fake.addCompletedScan('feature-x', [{ id: 'old', severity: 'high' }]);
    const own = api.fake.addCompletedScan('feature-x', [{ id: 'f1', severity: 'high' }]);
    api.fake.addCompletedScan('feature-y', []);
    const current = api.fake.addCompletedScan('feature-x', []);
    api.fake.addCompletedScan('main', [{ id: 'later', severity: 'high' }]);

    const baseline = await findBaseline(scansApi(), PROJECT, { branch: 'feature-x', baselineBranch: 'main' }, current);

    expect(baseline).toMatchObject({ scan: { scan_id: own }, branch: 'feature-x', reason: 'same_branch' });
    expect(baseline?.findingIds).toEqual(new Set(['f1']));
    expect(api.fake.sent('findings')).toHaveLength(1);
  });

  it('is none when neither the baseline branch nor the branch has an earlier completed scan', async () => {
    api.fake.addCompletedScan('feature', []);
    const current = api.fake.addCompletedScan('feature-x', []);
    api.fake.addCompletedScan('main', []);

    expect(await findBaseline(scansApi(), PROJECT, { branch: 'feature-x', baselineBranch: 'main' }, current)).toBeUndefined();
  });

  it('is never a scan of another branch without a baseline branch, and a baseline branch that is the branch itself counts as none', async () => {
    api.fake.addCompletedScan('main', []);
    const own = api.fake.addCompletedScan('feature-x', [{ id: 'f1', severity: 'high' }]);
    api.fake.addCompletedScan('main', []);
    const current = api.fake.addCompletedScan('feature-x', []);

    expect(await findBaseline(scansApi(), PROJECT, { branch: 'feature-y' }, current)).toBeUndefined();
    expect(await findBaseline(scansApi(), PROJECT, { branch: 'feature-x', baselineBranch: 'feature-x' }, current)).toMatchObject({ scan: { scan_id: own }, branch: 'feature-x', reason: 'same_branch' });
  });

  it(`is looked for, on both branches, among the last ${BASELINE_LOOKBACK} earlier completed scans only, page by page`, async () => {
    api.fake.addCompletedScan('feature-x', []);
    api.fake.addCompletedScan('main', []);
    for (let n = 0; n < BASELINE_LOOKBACK; n++) api.fake.addCompletedScan('feature', []);
    const current = api.fake.addCompletedScan('feature-x', []);

    expect(await findBaseline(scansApi(), PROJECT, { branch: 'feature-x', baselineBranch: 'main' }, current)).toBeUndefined();
    expect(api.fake.sent('getScan')).toHaveLength(BASELINE_LOOKBACK);
    expect(api.fake.sent('listScans').every((request) => request.query.get('status') === 'completed')).toBe(true);
  });
});
