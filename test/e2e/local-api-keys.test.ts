import { execFile } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeDataDir, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-keys-'));
const kept = 'gh_test_keys_kept_0123456789';
const dropped = 'gh_test_keys_dropped_0123456789';
let running: RuntimeProcess | undefined;
/** Every line any start printed, for the check that a start prints no warnings. */
const printed: string[] = [];

/** `npm start` on the shared data dir, with GATEHOUSE_API_KEYS as given ('' is unset). */
async function start(apiKeys: string): Promise<RuntimeProcess> {
  running = await startRuntimeProcess({ apiKeys, dataDir });
  return running;
}

async function stop(): Promise<void> {
  if (!running) return;
  await running.stop();
  printed.push(...running.output);
  running = undefined;
}

async function status(runtime: RuntimeProcess, key: string): Promise<number> {
  return (await fetch(`${runtime.baseUrl}/agents`, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(15_000) })).status;
}

/** `npm run keys -- … --local`, as an operator runs it beside the running runtime. */
async function keysCli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args, '--local', '--data-dir', dataDir], { timeout: 60_000 });
  return stdout;
}

function devKeyOf(runtime: RuntimeProcess): string {
  const key = runtime.output.map((line) => /Dev API key for tenant 'dev' \(kept in .*\): (\S+)/.exec(line)?.[1]).find(Boolean);
  if (!key) throw new Error(`no dev key printed: ${runtime.output.join('\n')}`);
  return key;
}

async function liveDevKeys(): Promise<unknown[]> {
  const rows = JSON.parse(await keysCli('list', '--tenant', 'dev', '--json')) as { revoked_at: string }[];
  return rows.filter((row) => row.revoked_at === '');
}

describe('the keys of `npm start` across restarts on the same data dir', () => {
  let cliKey = '';
  let devKey = '';

  afterEach(stop);

  afterAll(async () => {
    await stop();
    removeDataDir(dataDir);
  });

  it('revokes a key removed from GATEHOUSE_API_KEYS; kept keys and keys of the keys CLI still work', async () => {
    const first = await start(`acme:${kept},globex:${dropped}`);
    cliKey = /API key \(shown once, store it now\): (\S+)/.exec(await keysCli('create', '--tenant', 'initech'))?.[1] ?? '';
    expect([await status(first, kept), await status(first, dropped), await status(first, cliKey)]).toEqual([200, 200, 200]);
    await stop();

    const second = await start(`acme:${kept}`);

    expect(await status(second, dropped)).toBe(401);
    expect(await status(second, kept)).toBe(200);
    expect(await status(second, cliKey)).toBe(200);
  }, 240_000);

  it('reuses one dev key across starts without the variable, revokes the variable’s keys, and never the CLI’s', async () => {
    const first = await start('');
    devKey = devKeyOf(first);
    expect(statSync(join(dataDir, 'dev-key')).mode & 0o777).toBe(0o600);
    expect(await status(first, kept)).toBe(401);
    await stop();

    for (let restart = 0; restart < 2; restart++) {
      const again = await start('');
      expect(devKeyOf(again)).toBe(devKey);
      expect(await status(again, devKey)).toBe(200);
      expect(await status(again, cliKey)).toBe(200);
      expect(await liveDevKeys()).toHaveLength(1);
      await stop();
    }
  }, 240_000);

  it('works again for a key listed anew, and revokes the dev key while the variable lists keys', async () => {
    expect(devKey, 'the dev key of the test before').not.toBe('');
    const listed = await start(`acme:${kept}`);

    expect(await status(listed, kept)).toBe(200);
    expect(await status(listed, devKey)).toBe(401);
    expect(await status(listed, cliKey)).toBe(200);
  }, 240_000);

  it('prints no warnings at start (MaxListenersExceededWarning was one)', () => {
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter((line) => /^\(node:\d+\) \w*Warning/.test(line))).toEqual([]);
  });
});
