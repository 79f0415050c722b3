/** What `gatehouse --help` and `gatehouse scan --help` print; the README and docs/ci.md say the same. */

const EXIT_CODES = `Exit codes:
  0  passed: no open finding at or above --fail-on (none new, with --new-only)
  1  failed: open findings at or above --fail-on
  2  usage or configuration: a bad flag, a missing variable, or the API refused
     the request (401/403 key, 404 project, 400 flags)
  3  no verdict: the scan failed, was cancelled or timed out, or the API could
     not be reached after retries
  130, 143  stopped by SIGINT or SIGTERM (the scan is cancelled)`;

const ENVIRONMENT = `Environment:
  GATEHOUSE_API_URL        the API's base URL, e.g. https://api.example.com/v1
  GATEHOUSE_API_KEY        an API key of role operator or admin (never a flag:
                           it would show in CI logs)
  GATEHOUSE_DASHBOARD_URL  optional: the dashboard's URL, to print a link to the scan`;

export const MAIN_HELP = `Usage: gatehouse <command> [options]

Runs Gatehouse scans from CI.

Commands:
  scan       Start a scan of a project, follow it, write SARIF, and exit 1 when
             open findings reach a severity (gatehouse scan --help)

Options:
  -h, --help     Show this help
  -v, --version  Show the version

${ENVIRONMENT}

${EXIT_CODES}
`;

export const SCAN_HELP = `Usage: gatehouse scan --project <id> [options]

Starts a scan of the project, shows its progress on stderr, prints a summary on
stdout, writes the SARIF log if asked, and exits 1 when open (not dismissed)
findings are at or above --fail-on.

Options:
  --project <id>          the project to scan (required)
  --fail-on <severity>    critical, high, medium, low, info or none (default high)
  --sarif <file>          write the scan's SARIF 2.1.0 log there (folders made),
                          also when the gate fails
  --new-only              fail only on findings the scan compared with did not
                          have: with a baseline branch (a pull request), the
                          last completed scan of the baseline branch, or if it
                          has none, of the same branch; without one (a push),
                          the last of the same branch; if there is none,
                          every finding is new
  --branch <name>         the branch, recorded in the scan's metadata; default
                          GITHUB_HEAD_REF, GITHUB_REF_NAME or CI_COMMIT_REF_NAME
  --baseline-branch <name>
                          the branch --new-only compares with, e.g. the one a
                          pull request goes into; recorded in the metadata;
                          default GITHUB_BASE_REF (GitHub pull requests) or
                          CI_MERGE_REQUEST_TARGET_BRANCH_NAME (GitLab)
  --detectors <list>      comma-separated: accessibility, security, ai_readiness
                          (default the project's)
  --environment <name>    a label for the scan, up to 64 characters
  --metadata <key=value>  more metadata for the scan; repeat for several
  --timeout <seconds>     how long to wait for the scan to end (default 900);
                          then it is cancelled, exit 3
  --json                  print the summary as JSON instead of text
  -h, --help              show this help

The scan's metadata also records, when the CI provides them, commit,
pull_request and ci_run_url (GitHub Actions, GitLab CI).

${ENVIRONMENT}

${EXIT_CODES}
`;
