import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-process';
import { apiClient, startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { sarifSchema } from '../support/sarif-schema';

/**
 * The CLI as CI runs it: the real process (`node sdk/cli/bin/gatehouse.mjs scan ...`) against the
 * local runtime, scanning a loopback site whose problems the test controls. Only the security
 * detector runs, to keep each scan to a few seconds: the site sends no security headers (medium
 * findings), and serves a readable `/.env` (a high finding) once the test exposes it.
 */

let runtime: TestRuntime;
let site: Site;
let api: ReturnType<typeof apiClient>;
let projectId: string;
let dir: string;

interface Site {
  url: string;
  /** Serve `/.env` with a secret in it: the security detector's `exposed-file`, severity high. */
  exposeEnv: boolean;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  let exposeEnv = false;
  const server: Server = createServer((req, res) => {
    if (req.url === '/.env' && exposeEnv) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('DATABASE_PASSWORD=hunter2\n');
    // A page that answers after the CLI's --timeout, so that the scan is still running then.
    if (req.url === '/slow/') return void setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Slow</title>'), 8_000);
    // Every other path is the page itself (a soft 404, which the exposed-file probes see through).
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shoes</h1></html>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get exposeEnv() {
      return exposeEnv;
    },
    set exposeEnv(value) {
      exposeEnv = value;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** What the CLI needs from CI's secrets. */
function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { GATEHOUSE_API_URL: runtime.baseUrl, GATEHOUSE_API_KEY: runtime.keys.a, ...extra };
}

async function newProject(name: string, target: string): Promise<string> {
  const created = await api('POST', '/projects', { name, target, default_detectors: ['security'], crawl: { max_pages: 1, timeout_seconds: 30 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.project_id;
}

/** The ids of the scans of the project, newest first. */
async function scanIds(project: string): Promise<string[]> {
  return (await api('GET', `/projects/${project}/scans?limit=100`)).body.data.map((scan: { scan_id: string }) => scan.scan_id);
}

describe('gatehouse scan end to end, as a CI step', () => {
  beforeAll(async () => {
    site = await startSite();
    runtime = await startTestRuntime('cli-scan');
    api = apiClient(runtime.baseUrl, runtime.keys.a);
    projectId = await newProject('CLI site', site.url);
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-e2e-'));
  });

  afterAll(async () => {
    await runtime?.stop();
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('exit 2: usage and configuration, before any scan', () => {
    it('without GATEHOUSE_API_KEY', async () => {
      const { code, stderr } = await runCli(['scan', '--project', projectId], { GATEHOUSE_API_URL: runtime.baseUrl });

      expect(code).toBe(2);
      expect(stderr).toContain('GATEHOUSE_API_KEY is not set');
    });

    it('with an unknown flag', async () => {
      const { code, stderr } = await runCli(['scan', '--project', projectId, '--severity', 'high'], cliEnv());

      expect(code).toBe(2);
      expect(stderr).toContain("Unknown option '--severity'");
    });

    it("for a project the API does not know (404), printing the problem's detail", async () => {
      const { code, stderr } = await runCli(['scan', '--project', 'prj_01NOSUCHPROJECT00000000000'], cliEnv());

      expect(code).toBe(2);
      expect(stderr).toMatch(/the API answered 404 project_not_found: .*prj_01NOSUCHPROJECT00000000000/);
    });

    it('for a key the API refuses (401)', async () => {
      const { code, stderr } = await runCli(['scan', '--project', projectId], cliEnv({ GATEHOUSE_API_KEY: 'gh_live_000000000000000000000000000000000000' }));

      expect(code).toBe(2);
      expect(stderr).toContain('the API answered 401 unauthorized');
      expect(await scanIds(projectId)).toEqual([]);
    });
  });

  describe('exit 3: no verdict', () => {
    it('when the scan fails: its target cannot be reached', async () => {
      const closed = createServer();
      closed.listen(0, '127.0.0.1');
      await once(closed, 'listening');
      const deadPort = (closed.address() as AddressInfo).port;
      closed.close();
      const unreachable = await newProject('Unreachable site', `http://127.0.0.1:${deadPort}/`);

      const { code, stdout, stderr } = await runCli(['scan', '--project', unreachable], cliEnv());

      expect(code, stderr).toBe(3);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/security failed: The target could not be scanned/);
      expect(stderr).toMatch(/gatehouse: Scan scn_\w+ failed: every detector failed/);
    }, 60_000);

    it('when the scan does not end within --timeout: the CLI cancels it', async () => {
      const slow = await newProject('Slow site', `${site.url}slow/`);

      const { code, stderr } = await runCli(['scan', '--project', slow, '--timeout', '2'], cliEnv());

      expect(code, stderr).toBe(3);
      const [scanId] = await scanIds(slow);
      expect(stderr).toContain(`Cancelling scan ${scanId} (no end after 2 s)`);
      expect((await api('GET', `/scans/${scanId}`)).body.status).toBe('cancelled');
    }, 60_000);
  });

  describe('exit 0 and 1: the gate, and --new-only on a branch and on a pull request into it', () => {
    const sarifFile = () => join(dir, 'reports', 'gatehouse.sarif');
    // A push to main on GitHub Actions: the branch comes from GITHUB_REF_NAME, and there is no baseline branch.
    const push = { GITHUB_REF_NAME: 'main', GITHUB_REF: 'refs/heads/main', GITHUB_SHA: 'c0ffee', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '4242' };
    // A pull request from feature-x into main: GITHUB_HEAD_REF and GITHUB_BASE_REF.
    const pullRequest = { ...push, GITHUB_REF_NAME: '8/merge', GITHUB_REF: 'refs/pull/8/merge', GITHUB_HEAD_REF: 'feature-x', GITHUB_BASE_REF: 'main', GITHUB_RUN_ID: '4243' };
    const args = (...extra: string[]) => ['scan', '--project', projectId, '--detectors', 'security', '--fail-on', 'medium', '--new-only', ...extra];
    let first: string;
    let second: string;

    it('fails (1) on the first scan of the branch, where every finding is new, and writes valid SARIF', async () => {
      const { code, stdout, stderr } = await runCli(args('--sarif', sarifFile()), cliEnv(push));

      expect(code, stderr).toBe(1);
      [first] = await scanIds(projectId);
      expect(stderr).toContain(`Scan ${first} of project ${projectId} started (security; branch main)`);
      expect(stderr).toMatch(/^\[\d+:\d\d\] security: [1-9]\d* findings?, risk \d+\/100/m);
      expect(stderr).toMatch(/^\[\d+:\d\d\] completed: risk \d+\/100/m);
      expect(stdout).toContain('No earlier completed scan of branch main, and no baseline branch (--baseline-branch): every finding counts as new.');
      expect(stdout).toMatch(/Gate \(medium and above, new findings only\): FAILED, \d+ findings?/);
      expect(stdout).toContain('security.missing-csp');
      expect((await api('GET', `/scans/${first}`)).body.metadata).toEqual({ branch: 'main', commit: 'c0ffee', ci_run_url: 'https://github.com/acme/shop/actions/runs/4242' });
      const log = JSON.parse(readFileSync(sarifFile(), 'utf8'));
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      expect(ajv.validate(sarifSchema(), log), JSON.stringify(ajv.errors?.slice(0, 3))).toBe(true);
      expect(log.runs[0].results.length).toBeGreaterThan(0);
    }, 60_000);

    it('passes (0) on the same site again: findings at the threshold, none new since the last scan of the branch', async () => {
      const { code, stdout, stderr } = await runCli(args('--json'), cliEnv(push));

      expect(code, stderr).toBe(0);
      const summary = JSON.parse(stdout);
      [second] = await scanIds(projectId);
      expect(summary).toMatchObject({ status: 'completed', branch: 'main', baseline_branch: null, fail_on: 'medium', new_only: true, baseline_scan_id: first, baseline_reason: 'same_branch', new: 0, failing: [], passed: true, exit_code: 0 });
      expect(summary.at_or_above_threshold).toBeGreaterThan(0);
    }, 60_000);

    it('fails (1) on a pull request that adds a problem, compared with the last scan of its base branch (GITHUB_BASE_REF)', async () => {
      site.exposeEnv = true;

      const { code, stdout, stderr } = await runCli(args(), cliEnv(pullRequest));

      expect(code, stderr).toBe(1);
      expect(stderr).toContain('(security; branch feature-x; baseline branch main)');
      expect(stdout).toContain(`New since ${second} (the last completed scan of the baseline branch main, which branch feature-x is compared with): 1`);
      // What main had already (the missing headers, medium) does not fail the pull request; only what it added does.
      expect(stdout).toContain('Gate (medium and above, new findings only): FAILED, 1 finding');
      expect(stdout).toContain('security.exposed-file');
      expect(stdout).toContain(`${site.url}.env`);
      const [scanId] = await scanIds(projectId);
      expect((await api('GET', `/scans/${scanId}`)).body.metadata).toMatchObject({ branch: 'feature-x', baseline_branch: 'main', pull_request: 8 });
    }, 60_000);

    it("fails (1) again when the pull request's job is run again: its own failed scan completed, but the base branch is what it is compared with", async () => {
      const { code, stdout, stderr } = await runCli(args('--json'), cliEnv(pullRequest));

      expect(code, stderr).toBe(1);
      const summary = JSON.parse(stdout);
      expect(summary).toMatchObject({ branch: 'feature-x', baseline_branch: 'main', baseline_scan_id: second, baseline_reason: 'baseline_branch', new: 1, passed: false, exit_code: 1 });
      expect(summary.failing).toEqual([expect.objectContaining({ severity: 'high', rule_id: 'security.exposed-file', url: `${site.url}.env` })]);
      expect(summary.at_or_above_threshold).toBeGreaterThan(1);
    }, 60_000);

    it('passes (0) with a threshold above every finding, and with --fail-on none', async () => {
      const critical = await runCli(['scan', '--project', projectId, '--detectors', 'security', '--fail-on', 'critical', '--branch', 'release', '--json'], cliEnv());
      const none = await runCli(['scan', '--project', projectId, '--detectors', 'security', '--fail-on', 'none'], cliEnv());

      expect(critical.code, critical.stderr).toBe(0);
      expect(JSON.parse(critical.stdout)).toMatchObject({ open: { critical: 0, high: 1 }, at_or_above_threshold: 0, passed: true });
      expect(none.code, none.stderr).toBe(0);
      expect(none.stdout).toMatch(/Open findings: 0 critical, 1 high, [1-9]\d* medium/);
      expect(none.stdout).toContain('Gate: --fail-on none, findings never fail the build: passed');
    }, 90_000);
  });
});
