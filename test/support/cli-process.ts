import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/** The CLI's entry point, as `npx gatehouse` runs it in a checkout. */
export const CLI_BIN = join(import.meta.dirname, '../../sdk/cli/bin/gatehouse.mjs');

export interface CliProcess {
  pid: number;
  /** How it ended; rejects, after killing it, if it did not within the timeout given at spawn. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches, or rejects with what it printed after `ms`. */
  stderrMatches(pattern: RegExp, ms: number): Promise<void>;
}

/**
 * `node sdk/cli/bin/gatehouse.mjs <args>` with only `env` (and PATH and HOME): nothing of the
 * machine's own CI variables (GITHUB_*, CI_*) or Gatehouse settings leaks in.
 */
export function spawnCli(args: string[], env: Record<string, string>, timeoutMs: number): CliProcess {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exited = once(child, 'exit').then(([code, signal]) => {
    clearTimeout(timer);
    if (signal === 'SIGKILL') throw new Error(`gatehouse ${args.join(' ')} did not exit within ${timeoutMs} ms\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  // Observed by whoever awaits it; this keeps a failure from also being reported as unhandled.
  exited.catch(() => undefined);
  return {
    pid: child.pid as number,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    async stderrMatches(pattern, ms) {
      const deadline = Date.now() + ms;
      while (!pattern.test(stderr)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`stderr did not match ${pattern} within ${ms} ms:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** Runs the CLI to its end: its exit code and what it printed. */
export async function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = spawnCli(args, env, timeoutMs);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}
