import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/free-port';
import { apiClient, eventually } from '../support/local-runtime';

const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-restart-'));
const key = 'gh_test_restart_key_0123456789';
const started: ChildProcess[] = [];

/** `npm start`'s entry point, as its own process group so that cleanup can take its Java child too. */
async function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    env: { ...process.env, PORT: String(port), GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_API_KEYS: `restart:${key}`, GATEHOUSE_IN_MEMORY: '' },
    detached: true,
    stdio: 'ignore',
  });
  started.push(child);
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.ok).catch(() => false)) || undefined, 60_000, 200);
  return child;
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe('a runtime killed with work in flight', () => {
  afterAll(() => {
    started.forEach(killGroup);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes every queued and running task after SIGKILL and a restart on the same data dir', async () => {
    const port = await freePort();
    const first = await start(port);
    const api = apiClient(`http://127.0.0.1:${port}/v1`, key);
    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
    const taskIds: string[] = [];
    for (let index = 0; index < 30; index++) {
      const { status, body } = await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      expect(status).toBe(202);
      taskIds.push(body.task_id);
    }

    // The runtime process dies at once, mid-work; its engines are whatever it left behind.
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    await start(port);

    const tasks = await eventually(async () => {
      const all = await Promise.all(taskIds.map(async (taskId) => (await api('GET', `/tasks/${taskId}`)).body));
      return all.every((task) => task.status === 'complete') ? all : undefined;
    }, 60_000, 250);
    for (const task of tasks) {
      expect(task.artifacts).toHaveLength(2);
      expect(new Set(task.artifacts.map((artifact: { type: string }) => artifact.type)).size).toBe(2);
    }
  }, 180_000);
});
