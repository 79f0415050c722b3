type Env = Record<string, string | undefined>;

/** What the CI run says about itself, recorded in the scan's metadata. */
export interface CiContext {
  branch?: string;
  /** The branch a pull or merge request goes into: what `--new-only` compares with first. */
  baseline_branch?: string;
  commit?: string;
  pull_request?: number;
  ci_run_url?: string;
}

/**
 * GitHub Actions and GitLab CI. An empty variable counts as unset: GitHub sets GITHUB_HEAD_REF
 * and GITHUB_BASE_REF on every run, empty unless the run is for a pull request (where
 * GITHUB_REF_NAME is `42/merge`). GitLab sets CI_MERGE_REQUEST_TARGET_BRANCH_NAME in merge
 * request pipelines only.
 */
export function ciContext(env: Env): CiContext {
  const get = (name: string) => env[name]?.trim() || undefined;
  const branch = get('GITHUB_HEAD_REF') ?? get('GITHUB_REF_NAME') ?? get('CI_COMMIT_REF_NAME');
  const baselineBranch = get('GITHUB_BASE_REF') ?? get('CI_MERGE_REQUEST_TARGET_BRANCH_NAME');
  const commit = get('GITHUB_SHA') ?? get('CI_COMMIT_SHA');
  const pullRequest = /^refs\/pull\/(\d+)\//.exec(get('GITHUB_REF') ?? '')?.[1] ?? get('CI_MERGE_REQUEST_IID');
  const github = [get('GITHUB_SERVER_URL'), get('GITHUB_REPOSITORY'), get('GITHUB_RUN_ID')];
  const runUrl = github.every(Boolean) ? `${github[0]}/${github[1]}/actions/runs/${github[2]}` : get('CI_JOB_URL');
  return {
    ...(branch ? { branch } : {}),
    ...(baselineBranch ? { baseline_branch: baselineBranch } : {}),
    ...(commit ? { commit } : {}),
    ...(pullRequest && /^\d+$/.test(pullRequest) ? { pull_request: Number(pullRequest) } : {}),
    ...(runUrl ? { ci_run_url: runUrl } : {}),
  };
}
