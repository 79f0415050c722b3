import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Provisioned } from '#lib/local/provision';
import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { retentionStamps } from '#shared/services/retention-stamps';
import { loadSettings } from '#shared/services/tenant-settings';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const runner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps });
let provisioned: Provisioned;

/** `npm run tenants -- <args>` as a child process against the test's table (the `--table` target). */
async function tenantsCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const environment = { ...process.env, ...provisioned.environment, TABLE_NAME: '' };
  try {
    const { stdout, stderr } = await run(join(REPO_ROOT, 'node_modules/.bin/tsx'), [join(REPO_ROOT, 'bin/tenants.ts'), ...args, '--table', provisioned.tableName], { env: environment, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('tenants CLI against DynamoDB Local', () => {
  beforeAll(async () => {
    provisioned = await provisionForTest('tenants-cli');
  });

  it('shows the default plan of a tenant that has no settings', async () => {
    const tenant = uniqueTenant();

    const { code, stdout } = await tenantsCli('show', '--tenant', tenant);

    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ tenant_id: tenant, plan: 'free', retention_days: 90, max_retention_days: 90, version: 0, existing_artifacts: 'up to date' });
  }, 90_000);

  it('puts a tenant on pro and removes the expiry of its existing artifacts before it exits', async () => {
    const tenant = uniqueTenant();
    const task = await storedTask(tenant);
    await runner.run(tenant, task.task_id);
    const artifactIds = Object.keys((await taskRepository.load(tenant, task.task_id))!.artifacts);
    expect((await artifactRepository.get(tenant, artifactIds[0]))!.expires_at).not.toBeNull();

    const { code, stdout, stderr } = await tenantsCli('set-plan', '--tenant', tenant, '--plan', 'pro');

    expect(code).toBe(0);
    expect(stderr).toContain(`Applied the retention to existing artifacts (${artifactIds.length} updated).`);
    expect(JSON.parse(stdout)).toMatchObject({ tenant_id: tenant, plan: 'pro', retention_days: null, max_retention_days: null, version: 1, existing_artifacts: 'up to date' });
    for (const id of artifactIds) expect((await artifactRepository.get(tenant, id))!.expires_at).toBeNull();
    expect((await loadSettings(tenant)).plan).toBe('pro');
  }, 90_000);

  it('rejects an unknown plan or a missing tenant with exit code 2 and changes nothing', async () => {
    const tenant = uniqueTenant();

    const unknownPlan = await tenantsCli('set-plan', '--tenant', tenant, '--plan', 'platinum');
    const noTenant = await tenantsCli('set-plan', '--plan', 'pro');

    expect(unknownPlan.code).toBe(2);
    expect(unknownPlan.stderr).toContain('set-plan needs --plan, one of free, starter, pro, enterprise.');
    expect(noTenant.code).toBe(2);
    expect((await loadSettings(tenant)).version).toBe(0);
  }, 90_000);
});
