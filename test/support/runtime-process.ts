import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '#lib/local/free-port';
import { eventually } from './local-runtime';

/**
 * `npm start`'s entry point (`bin/local.ts`) as a child process on a data dir of its own, with its
 * own engines: a runtime that tests may SIGKILL, restart on the same data, or whose DynamoDB Local
 * they may freeze, without touching the engines other test files share.
 */
export interface RuntimeProcess {
  baseUrl: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** What the runtime wrote to stdout and stderr (the last 200 lines), for failure messages. */
  output: string[];
  /** Process id of this run's DynamoDB Local (from the runtime.json the runtime writes). */
  dynamodbPid(): number;
  /** SIGKILL of the Node process only: its DynamoDB Local lives on, as after a real crash. */
  crash(): Promise<void>;
  /** SIGTERM and wait for a clean stop (bounded), then SIGKILL whatever is left of its group. */
  stop(): Promise<void>;
}

export interface RuntimeProcessOptions {
  /** `tenant:key` pairs (GATEHOUSE_API_KEYS). */
  apiKeys: string;
  /** Reuse a data dir (a restart); otherwise a fresh temporary one. */
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
}

const STARTUP_TIMEOUT_MS = 120_000;

export async function startRuntimeProcess(options: RuntimeProcessOptions): Promise<RuntimeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-resilience-'));
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    env: { ...process.env, GATEHOUSE_SMTP_PORT: '0', ...options.env, PORT: String(port), GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_API_KEYS: options.apiKeys, GATEHOUSE_IN_MEMORY: '' },
    // Its own process group, so that cleanup can take its Java child too.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...String(chunk).split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 200));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  try {
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`the runtime exited with ${child.exitCode}: ${output.slice(-20).join('\n')}`);
      return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) }).then((response) => response.ok).catch(() => false)) || undefined;
    }, STARTUP_TIMEOUT_MS, 250);
  } catch (error) {
    killGroup();
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    dataDir,
    child,
    output,
    dynamodbPid() {
      const file = join(dataDir, 'runtime.json');
      if (!existsSync(file)) throw new Error('the runtime wrote no runtime.json');
      const { dynamodbPid } = JSON.parse(readFileSync(file, 'utf8')) as { dynamodbPid?: number };
      if (!dynamodbPid) throw new Error('runtime.json names no DynamoDB Local process');
      return dynamodbPid;
    },
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      }
      killGroup();
    },
  };
}

/** Removes a data dir the tests made. */
export function removeDataDir(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}
