import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Interrupted } from '../../../sdk/cli/src/errors.ts';
import { FakeApi, PROJECT, type FindingSpec } from './fake-api.ts';
import { useFakeApi } from './harness.ts';

const api = useFakeApi();

const SOME: FindingSpec[] = [
  { id: 'fnd_high', severity: 'high' },
  { id: 'fnd_medium', severity: 'medium' },
  { id: 'fnd_low', severity: 'low' },
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('gatehouse scan, in process, against a fake API', () => {
  describe('exit 0 and 1: the gate', () => {
    it('passes (0) when no open finding reaches --fail-on, showing progress on stderr and a summary on stdout', async () => {
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 2 };

      const { code, stdout, stderr } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'critical']);

      expect(code).toBe(0);
      const scanId = api.fake.created()[0].scan_id;
      expect(stderr).toContain(`Scan ${scanId} of project ${PROJECT} started (accessibility, security); about 4 s`);
      expect(stderr).toMatch(/^\[0:00\] pending$/m);
      expect(stderr).toMatch(/^\[0:00\] running: accessibility, security$/m);
      expect(stderr).toMatch(/^\[0:00\] accessibility done$/m);
      expect(stderr).toMatch(/^\[0:00\] completed: risk 27\/100 \(medium\)$/m);
      expect(stderr).toMatch(/^\[0:00\] security: 3 findings, risk 27\/100 \(medium\)$/m);
      expect(stdout).toContain(`Scan ${scanId} completed in 3 s: risk 27/100 (medium)`);
      expect(stdout).toContain('Open findings: 0 critical, 1 high, 1 medium, 1 low, 0 info');
      expect(stdout).toContain('Gate (critical and above): passed');
      expect(stdout).toContain(`Scan id: ${scanId}`);
    });

    it('fails (1) on open findings at or above --fail-on, listing them', async () => {
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 1 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium']);

      expect(code).toBe(1);
      expect(stdout).toContain('Gate (medium and above): FAILED, 2 findings');
      expect(stdout).toMatch(/^ {2}high {4}\s*security\.rule-fnd_high {2}Problem fnd_high {2}https:\/\/shop\.example\/fnd_high$/m);
      expect(stdout).not.toContain('fnd_low');
    });

    it('fails by default (high) and never with --fail-on none', async () => {
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 0 };

      expect((await api.cli(['scan', '--project', PROJECT])).code).toBe(1);
      const none = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'none']);
      expect(none.code).toBe(0);
      expect(none.stdout).toContain('Gate: --fail-on none, findings never fail the build: passed');
    });

    it('does not count dismissed findings', async () => {
      api.fake.plan = { findings: [{ id: 'fnd_x', severity: 'critical', status: 'dismissed' }, { id: 'fnd_y', severity: 'low' }], outcome: 'completed', runningReads: 0 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'high']);

      expect(code).toBe(0);
      expect(stdout).toContain('Open findings: 0 critical, 0 high, 0 medium, 1 low, 0 info (1 dismissed, not counted)');
    });
  });

  describe('--new-only', () => {
    it('passes (0) when every finding at the threshold was in the last scan of the branch', async () => {
      const earlier = api.fake.addCompletedScan('main', SOME);
      api.fake.addCompletedScan('feature', []);
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 0 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'low', '--new-only', '--branch', 'main']);

      expect(code).toBe(0);
      expect(stdout).toContain(`New since ${earlier} (the last completed scan of this branch, main; there is no baseline branch): 0`);
      expect(stdout).toContain('Gate (low and above, new findings only): passed (3 at or above low, none new)');
    });

    it('fails (1) on a finding the last scan of the branch did not have', async () => {
      api.fake.addCompletedScan('main', SOME);
      api.fake.plan = { findings: [...SOME, { id: 'fnd_new', severity: 'medium' }], outcome: 'completed', runningReads: 0 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium', '--new-only', '--branch', 'main']);

      expect(code).toBe(1);
      expect(stdout).toContain('Gate (medium and above, new findings only): FAILED, 1 finding');
      expect(stdout).toContain('fnd_new');
      expect(stdout).not.toContain('Problem fnd_high');
    });

    it('counts every finding as new when the branch has no earlier scan and there is no baseline branch, and says so', async () => {
      api.fake.addCompletedScan('feature', SOME);
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 0 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'high', '--new-only'], { env: api.env({ GITHUB_HEAD_REF: 'main' }) });

      expect(code).toBe(1);
      expect(stdout).toContain('No earlier completed scan of branch main, and no baseline branch (--baseline-branch): every finding counts as new.');
    });

    it("passes (0) on a pull request's first scan when the last scan of its base branch (GITHUB_BASE_REF) had every finding", async () => {
      const onMain = api.fake.addCompletedScan('main', SOME);
      api.fake.addCompletedScan('feature-y', []);
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 0 };

      const { code, stdout, stderr } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'low', '--new-only'], { env: api.env({ GITHUB_HEAD_REF: 'feature-x', GITHUB_BASE_REF: 'main' }) });

      expect(code).toBe(0);
      expect(stderr).toContain(`Scan ${api.fake.created()[0].scan_id} of project ${PROJECT} started (accessibility, security; branch feature-x; baseline branch main)`);
      expect(stdout).toContain(`New since ${onMain} (the last completed scan of the baseline branch main, which branch feature-x is compared with): 0`);
      expect(stdout).toContain('Gate (low and above, new findings only): passed (3 at or above low, none new)');
    });

    it('fails (1) on what the pull request added since the last scan of the baseline branch, --baseline-branch before the CI', async () => {
      const onDevelop = api.fake.addCompletedScan('develop', SOME);
      api.fake.addCompletedScan('main', []);
      api.fake.plan = { findings: [...SOME, { id: 'fnd_new', severity: 'medium' }], outcome: 'completed', runningReads: 0 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium', '--new-only', '--baseline-branch', 'develop', '--json'], { env: api.env({ GITHUB_HEAD_REF: 'feature-x', GITHUB_BASE_REF: 'main' }) });

      expect(code).toBe(1);
      expect(JSON.parse(stdout)).toMatchObject({ branch: 'feature-x', baseline_branch: 'develop', baseline_scan_id: onDevelop, baseline_reason: 'baseline_branch', new: 1, failing: [{ id: 'fnd_new' }] });
      expect(api.fake.sent('createScan')[0].body?.metadata).toEqual({ branch: 'feature-x', baseline_branch: 'develop' });
    });

    it('fails (1) again when a pull request is run again: it compares with the baseline branch, not with its own newer scan that had the problem', async () => {
      const onMain = api.fake.addCompletedScan('main', SOME);
      api.fake.addCompletedScan('feature-x', [...SOME, { id: 'fnd_new', severity: 'medium' }]);
      api.fake.plan = { findings: [...SOME, { id: 'fnd_new', severity: 'medium' }], outcome: 'completed', runningReads: 0 };

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium', '--new-only', '--branch', 'feature-x', '--baseline-branch', 'main', '--json']);

      expect(code).toBe(1);
      expect(JSON.parse(stdout)).toMatchObject({ baseline_branch: 'main', baseline_scan_id: onMain, baseline_reason: 'baseline_branch', new: 1, failing: [{ id: 'fnd_new' }] });
    });

    it('falls back to the last scan of the same branch when the baseline branch has none, and says that what that scan had is not new', async () => {
      const own = api.fake.addCompletedScan('feature-x', [...SOME, { id: 'fnd_new', severity: 'medium' }]);
      api.fake.plan = { findings: [...SOME, { id: 'fnd_new', severity: 'medium' }], outcome: 'completed', runningReads: 0 };

      const text = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium', '--new-only', '--branch', 'feature-x', '--baseline-branch', 'main']);
      const json = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium', '--new-only', '--branch', 'feature-x', '--baseline-branch', 'main', '--json']);

      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`New since ${own} (the last completed scan of this branch, feature-x: the baseline branch main has no completed scan before this one): 0`);
      expect(text.stdout).toContain('Note: a finding an earlier scan of feature-x already had does not count as new, though main may not have it; scan main too (on push) so that feature-x is compared with it.');
      expect(json.code).toBe(0);
      // The text run's scan is now the branch's last.
      expect(JSON.parse(json.stdout)).toMatchObject({ branch: 'feature-x', baseline_branch: 'main', baseline_scan_id: api.fake.created()[0].scan_id, baseline_reason: 'same_branch', new: 0 });
    });

    it('counts every finding as new when neither branch has an earlier scan, and says which it looked for', async () => {
      api.fake.addCompletedScan('feature-y', SOME);
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 0 };

      const text = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'high', '--new-only', '--branch', 'feature-x', '--baseline-branch', 'main']);
      const json = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'high', '--new-only', '--branch', 'feature-z', '--baseline-branch', 'main', '--json']);

      expect(text.code).toBe(1);
      expect(text.stdout).toContain('No earlier completed scan of the baseline branch main or of branch feature-x: every finding counts as new.');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ baseline_branch: 'main', baseline_scan_id: null, baseline_reason: 'none', new: 3 });
    });

    it('needs a branch (2), and starts nothing without one', async () => {
      const { code, stderr } = await api.cli(['scan', '--project', PROJECT, '--new-only']);

      expect(code).toBe(2);
      expect(stderr).toContain('--new-only compares with the last scan of the branch: pass --branch');
      expect(api.fake.requests).toEqual([]);
    });
  });

  describe('what it sends and writes', () => {
    it("records the branches and the CI run in the scan's metadata, with --metadata, --detectors and --environment", async () => {
      const env = api.env({ GITHUB_HEAD_REF: 'feature/login', GITHUB_BASE_REF: 'main', GITHUB_REF: 'refs/pull/42/merge', GITHUB_SHA: 'abc123', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '987' });

      await api.cli(['scan', '--project', PROJECT, '--detectors', 'security', '--environment', 'preview', '--metadata', 'team=web', '--metadata', 'commit=override'], { env });

      expect(api.fake.sent('createScan')[0].body).toEqual({
        detectors: ['security'],
        environment: 'preview',
        metadata: { branch: 'feature/login', baseline_branch: 'main', commit: 'override', pull_request: 42, ci_run_url: 'https://github.com/acme/shop/actions/runs/987', team: 'web' },
      });
    });

    it('prefers --branch and --baseline-branch to the CI, and sends no metadata when there is none', async () => {
      await api.cli(['scan', '--project', PROJECT, '--branch', 'release'], { env: api.env({ GITHUB_REF_NAME: 'main' }) });
      await api.cli(['scan', '--project', PROJECT, '--baseline-branch', 'stable'], { env: api.env({ CI_COMMIT_REF_NAME: 'fix-contrast', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'develop' }) });
      await api.cli(['scan', '--project', PROJECT], { env: api.env({ CI_COMMIT_REF_NAME: 'fix-contrast', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'develop' }) });
      await api.cli(['scan', '--project', PROJECT]);

      expect(api.fake.sent('createScan').map((request) => request.body)).toEqual([
        { metadata: { branch: 'release' } },
        { metadata: { branch: 'fix-contrast', baseline_branch: 'stable' } },
        { metadata: { branch: 'fix-contrast', baseline_branch: 'develop' } },
        {},
      ]);
    });

    it('writes the SARIF log, making its folders, also when the gate fails', async () => {
      api.fake.plan = { findings: SOME, outcome: 'completed', runningReads: 0 };
      const file = join(dir, 'reports', 'ci', 'gatehouse.sarif');

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--sarif', file]);

      expect(code).toBe(1);
      const scanId = api.fake.created()[0].scan_id;
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: '2.1.0', runs: [{ properties: { from: scanId } }] });
      expect(readdirSync(join(dir, 'reports', 'ci'))).toEqual(['gatehouse.sarif']);
      expect(stdout).toContain(`SARIF: ${file}`);
    });

    it('exits 2 when the SARIF file cannot be written', async () => {
      const file = join(dir, 'a-file', 'out.sarif');
      writeFileSync(join(dir, 'a-file'), '');

      const { code, stderr } = await api.cli(['scan', '--project', PROJECT, '--sarif', file]);

      expect(code).toBe(2);
      expect(stderr).toContain(`gatehouse: Cannot write the SARIF file ${file}: EEXIST`);
      expect(stderr).not.toContain('--help');
    });

    it('prints a JSON summary with --json', async () => {
      api.fake.addCompletedScan('main', [{ id: 'fnd_high', severity: 'high' }]);
      api.fake.plan = { findings: [...SOME, { id: 'fnd_dismissed', severity: 'critical', status: 'dismissed' }], outcome: 'completed', runningReads: 0 };
      const file = join(dir, 'out.sarif');

      const { code, stdout } = await api.cli(['scan', '--project', PROJECT, '--fail-on', 'medium', '--new-only', '--branch', 'main', '--json', '--sarif', file], { env: api.env({ GATEHOUSE_DASHBOARD_URL: 'https://gatehouse.example/' }) });

      expect(code).toBe(1);
      const scanId = api.fake.created()[0].scan_id;
      expect(JSON.parse(stdout)).toEqual({
        scan_id: scanId,
        project_id: PROJECT,
        status: 'completed',
        risk_score: 27,
        risk_level: 'medium',
        branch: 'main',
        baseline_branch: null,
        fail_on: 'medium',
        new_only: true,
        open: { critical: 0, high: 1, medium: 1, low: 1, info: 0 },
        dismissed: 1,
        at_or_above_threshold: 2,
        baseline_scan_id: 'scn_000001',
        baseline_reason: 'same_branch',
        new: 2,
        failing: [{ id: 'fnd_medium', severity: 'medium', rule_id: 'security.rule-fnd_medium', title: 'Problem fnd_medium', url: 'https://shop.example/fnd_medium' }],
        failed_detectors: [],
        passed: false,
        exit_code: 1,
        sarif: file,
        url: `https://gatehouse.example/scans/${scanId}`,
      });
    });
  });

  describe('exit 2: usage and configuration', () => {
    it('refuses to run without GATEHOUSE_API_KEY, calling nothing', async () => {
      const { code, stderr } = await api.cli(['scan', '--project', PROJECT], { env: { GATEHOUSE_API_URL: api.fake.baseUrl } });

      expect(code).toBe(2);
      expect(stderr).toContain('GATEHOUSE_API_KEY is not set');
      expect(api.fake.requests).toEqual([]);
    });

    it("prints the problem's title and detail for a key the API refuses (401)", async () => {
      const { code, stderr } = await api.cli(['scan', '--project', PROJECT], { env: api.env({ GATEHOUSE_API_KEY: 'gh_live_wrong' }) });

      expect(code).toBe(2);
      expect(stderr).toBe('gatehouse: the API answered 401 unauthorized: Unauthorized: A valid API key is required.\n');
      expect(api.fake.sent('createScan')).toHaveLength(1);
    });

    it('exits 2 for an unknown project (404)', async () => {
      const { code, stderr } = await api.cli(['scan', '--project', 'prj_nope']);

      expect(code).toBe(2);
      expect(stderr).toContain('404 project_not_found: Not Found: The project prj_nope does not exist.');
    });
  });

  describe('exit 3: no verdict', () => {
    it('exits 3 when the scan failed, naming why', async () => {
      api.fake.plan = { findings: [], outcome: 'failed', runningReads: 1 };

      const { code, stdout, stderr } = await api.cli(['scan', '--project', PROJECT]);

      expect(code).toBe(3);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^\[0:00\] security failed: The target could not be scanned: connection refused$/m);
      expect(stderr).toContain(`gatehouse: Scan ${api.fake.created()[0].scan_id} failed: every detector failed (accessibility: The target could not be scanned`);
    });

    it('cancels the scan and exits 3 when it does not end within --timeout', async () => {
      api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };

      const { code, stderr } = await api.cli(['scan', '--project', PROJECT, '--timeout', '1']);

      expect(code).toBe(3);
      const [scan] = api.fake.created();
      expect(scan.status).toBe('cancelled');
      expect(stderr).toContain(`Cancelling scan ${scan.scan_id} (no end after 1 s)`);
      expect(stderr).toContain(`Scan ${scan.scan_id} cancelled`);
      expect(stderr).toContain('gatehouse: The scan did not end in time (it is running).');
    });

    it('exits 3 when the API cannot be reached after retries', async () => {
      const closed = await FakeApi.start();
      const baseUrl = closed.baseUrl;
      await closed.close();

      const { code, stderr } = await api.cli(['scan', '--project', PROJECT], { env: api.env({ GATEHOUSE_API_URL: baseUrl }) });

      expect(code).toBe(3);
      expect(stderr).toMatch(/^gatehouse: the API could not be reached: POST .*\/v1\/projects\/prj_cli\/scans: fetch failed \(ECONNREFUSED\)$/m);
    });

    it('exits 3 when the API fails while the scan runs, and cancels it', async () => {
      api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };
      api.fake.script('getScan', { status: 503 }, { status: 503 }, { status: 503 });

      const { code, stderr } = await api.cli(['scan', '--project', PROJECT]);

      expect(code).toBe(3);
      expect(stderr).toContain('the scan could not be followed');
      expect(api.fake.created()[0].status).toBe('cancelled');
    });
  });

  it('cancels the scan and exits 143 on SIGTERM', async () => {
    api.fake.plan = { findings: [], outcome: 'never', runningReads: 0 };
    const stopping = new AbortController();
    setTimeout(() => stopping.abort(new Interrupted('SIGTERM')), 200);

    const { code, stderr } = await api.cli(['scan', '--project', PROJECT], { signal: stopping.signal });

    expect(code).toBe(143);
    expect(api.fake.created()[0].status).toBe('cancelled');
    expect(stderr).toContain('gatehouse: Stopped by SIGTERM.');
  });
});
