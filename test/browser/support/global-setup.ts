import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { apiKeysSetting, usersSetting } from './people';

const STARTUP_TIMEOUT_MS = 180_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm start`'s entry point in memory (it builds the dashboard when stale) with people in
 * two tenants, waits until it is healthy, and answers the teardown that stops it and its engines.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    env: { ...process.env, GATEHOUSE_SMTP_PORT: '0', PORT: String(port), GATEHOUSE_IN_MEMORY: '1', GATEHOUSE_USERS: usersSetting(), GATEHOUSE_API_KEYS: apiKeysSetting(), GATEHOUSE_RATE_LIMIT_PER_SECOND: '1000', GATEHOUSE_RATE_LIMIT_BURST: '100000', GATEHOUSE_AUTHORIZER_CACHE_SECONDS: '0' },
    // Its own process group, so teardown takes DynamoDB Local (a Java child) with it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => output.push(...String(chunk).split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stopGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The runtime exited with ${child.exitCode}:\n${output.slice(-30).join('\n')}`);
    const healthy = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then((response) => response.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      stopGroup('SIGKILL');
      throw new Error(`The runtime did not become healthy:\n${output.slice(-30).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // Workers inherit the environment global setup leaves behind.
  process.env.GATEHOUSE_BROWSER_BASE_URL = baseUrl;

  return async () => {
    const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    stopGroup('SIGTERM');
    const timer = setTimeout(() => stopGroup('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    stopGroup('SIGKILL');
  };
}
