import { afterEach, beforeEach } from 'vitest';
import { run } from '../../../sdk/cli/src/run.ts';
import type { Timing } from '../../../sdk/cli/src/scan-command.ts';
import { API_KEY, FakeApi } from './fake-api.ts';

/** Waits that keep a test short: quick polls, small backoffs, one-second tries. */
export const QUICK: Partial<Timing> = { retry: { attempts: 3, baseMs: 10, maxMs: 200 }, attemptTimeoutMs: 1_000, pollMinMs: 10, pollMaxMs: 40 };

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh fake API per test, and the CLI's `run` against it, in this process, with its output collected. */
export function useFakeApi() {
  let fake: FakeApi;
  beforeEach(async () => {
    fake = await FakeApi.start();
  });
  afterEach(async () => {
    await fake.close();
  });
  return {
    get fake() {
      return fake;
    },
    env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
      return { GATEHOUSE_API_URL: fake.baseUrl, GATEHOUSE_API_KEY: API_KEY, ...extra };
    },
    async cli(argv: string[], options: { env?: Record<string, string | undefined>; signal?: AbortSignal; timing?: Partial<Timing> } = {}): Promise<CliRun> {
      let stdout = '';
      let stderr = '';
      const code = await run(argv, {
        env: options.env ?? this.env(),
        stdout: (text) => void (stdout += text),
        stderr: (text) => void (stderr += text),
        signal: options.signal,
        timing: { ...QUICK, ...options.timing },
      });
      return { code, stdout, stderr };
    },
  };
}
