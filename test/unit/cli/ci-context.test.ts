import { describe, expect, it } from 'vitest';
import { ciContext } from '../../../sdk/cli/src/ci-context.ts';
import { connectionFrom } from '../../../sdk/cli/src/connection.ts';
import { UsageError } from '../../../sdk/cli/src/errors.ts';

const GITHUB_RUN = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: '987', GITHUB_SHA: 'abc123' };

describe('what the CI says about the run', () => {
  it('takes the head branch of a GitHub pull request, its base branch as the baseline, with its number, commit and run', () => {
    const context = ciContext({ ...GITHUB_RUN, GITHUB_HEAD_REF: 'feature/login', GITHUB_BASE_REF: 'main', GITHUB_REF_NAME: '42/merge', GITHUB_REF: 'refs/pull/42/merge' });

    expect(context).toEqual({ branch: 'feature/login', baseline_branch: 'main', commit: 'abc123', pull_request: 42, ci_run_url: 'https://github.com/acme/shop/actions/runs/987' });
  });

  it('takes GITHUB_REF_NAME and no baseline on a push, where GITHUB_HEAD_REF and GITHUB_BASE_REF are set but empty', () => {
    expect(ciContext({ ...GITHUB_RUN, GITHUB_HEAD_REF: '', GITHUB_BASE_REF: '', GITHUB_REF_NAME: 'main', GITHUB_REF: 'refs/heads/main' })).toEqual({ branch: 'main', commit: 'abc123', ci_run_url: 'https://github.com/acme/shop/actions/runs/987' });
  });

  it("reads GitLab CI, a merge request's target branch as the baseline", () => {
    const context = ciContext({ CI_COMMIT_REF_NAME: 'fix-contrast', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'develop', CI_COMMIT_SHA: 'def456', CI_MERGE_REQUEST_IID: '7', CI_JOB_URL: 'https://gitlab.example/acme/shop/-/jobs/55' });

    expect(context).toEqual({ branch: 'fix-contrast', baseline_branch: 'develop', commit: 'def456', pull_request: 7, ci_run_url: 'https://gitlab.example/acme/shop/-/jobs/55' });
  });

  it('has no baseline branch in a GitLab branch pipeline', () => {
    expect(ciContext({ CI_COMMIT_REF_NAME: 'main', CI_COMMIT_SHA: 'def456' })).toEqual({ branch: 'main', commit: 'def456' });
  });

  it('says nothing outside CI', () => {
    expect(ciContext({ HOME: '/home/me' })).toEqual({});
  });
});

describe('the connection', () => {
  it('reads the URL and the key, trimming the newline a pasted secret brings', () => {
    expect(connectionFrom({ GATEHOUSE_API_URL: 'https://api.example.com/v1', GATEHOUSE_API_KEY: 'gh_live_key\n' })).toEqual({ apiUrl: 'https://api.example.com/v1', apiKey: 'gh_live_key' });
  });

  it('names every variable missing or wrong at once', () => {
    expect(() => connectionFrom({ GATEHOUSE_API_URL: 'ftp://api.example.com', GATEHOUSE_DASHBOARD_URL: 'dashboard' })).toThrow(
      new UsageError('GATEHOUSE_API_URL is not an http(s) URL; GATEHOUSE_API_KEY is not set (an API key of role operator or admin); GATEHOUSE_DASHBOARD_URL is not an http(s) URL.'),
    );
    expect(() => connectionFrom({ GATEHOUSE_API_KEY: ' ' })).toThrow(/GATEHOUSE_API_URL is not set.*GATEHOUSE_API_KEY is not set/);
  });
});
