import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { artifactRetentionRepository } from '#shared/adapters/dynamodb/artifact-retention-repository';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import type { Artifact } from '#shared/domain/artifact';
import { systemClock, type Clock } from '#shared/domain/clock';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { stampOf } from '#shared/domain/retention';
import type { RestampJob } from '#shared/domain/retention-job';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { resolveApproval } from '#shared/services/approvals';
import { deleteArtifact, listTaskArtifacts } from '#shared/services/artifacts';
import { setPlan, updateRetention } from '#shared/services/retention';
import { restampPage, type RestampProgress } from '#shared/services/retention-restamp';
import { retentionStamps } from '#shared/services/retention-stamps';
import { loadSettings } from '#shared/services/tenant-settings';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

const DAY = 86_400_000;
const runnerAt = (clock: Clock) => new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock, retention: retentionStamps });
const runner = runnerAt(systemClock);

const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop for every agent action.' },
  tone: 'concise',
};

/** The artifact item as stored, TTL attribute included (the API never shows `expires_at_epoch`). */
async function storedItem(tenantId: string, artifactId: string) {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.artifact(tenantId, artifactId), ConsistentRead: true }));
  return Item;
}

/** Runs `count` audit tasks (two artifacts each) and returns their artifact ids. */
async function auditArtifacts(tenantId: string, count: number, run = runner): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const task = await storedTask(tenantId);
    expect(await run.run(tenantId, task.task_id)).toBe('complete');
    ids.push(...Object.keys((await taskRepository.load(tenantId, task.task_id))!.artifacts));
  }
  return ids.sort();
}

const plusDays = (iso: string, days: number) => new Date(Math.ceil((Date.parse(iso) + days * DAY) / 1000) * 1000).toISOString();

async function expectStamp(tenantId: string, artifactId: string, days: number | null, version: number) {
  const item = (await storedItem(tenantId, artifactId))!;
  const expected = days === null ? null : plusDays(item.created_at, days);
  expect({ expires_at: item.expires_at, epoch: item.expires_at_epoch, version: item.retention_version }, artifactId).toEqual({
    expires_at: expected,
    epoch: expected === null ? undefined : Date.parse(expected) / 1000,
    version,
  });
}

describe('retention on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('retention');
  });

  it('stamps every artifact at write with the expiry of the tenant plan: 90 days on free, none on pro', async () => {
    const free = uniqueTenant('free');
    const pro = uniqueTenant('pro');
    await setPlan(pro, 'pro');

    const [freeArtifact] = await auditArtifacts(free, 1);
    const [proArtifact] = await auditArtifacts(pro, 1);

    await expectStamp(free, freeArtifact, 90, 0);
    await expectStamp(pro, proArtifact, null, 1);
    expect((await artifactRepository.get(free, freeArtifact))!.expires_at).toBe(plusDays((await storedItem(free, freeArtifact))!.created_at, 90));
  });

  it('keeps a gated artifact 7 days while nobody acts on it, and the retention once a human decided', async () => {
    const tenant = uniqueTenant('gated');
    await setPlan(tenant, 'pro');
    const task = await storedTask(tenant, { agent: 'sales', task_type: 'sales.draft_email', input: draftInput });

    expect(await runner.run(tenant, task.task_id)).toBe('paused');
    const draftId = Object.values((await taskRepository.load(tenant, task.task_id))!.artifacts).find((summary) => summary.type === 'sales.email_draft')!.artifact_id;
    await expectStamp(tenant, draftId, 7, 1);

    const { approvals } = await approvalRepository.list(tenant, { status: 'pending', taskId: task.task_id, limit: 10 });
    await resolveApproval(tenant, approvals[0].approval_id, { decision: 'denied' }, { type: 'api_key', id: 'key_test' });

    expect((await artifactRepository.get(tenant, draftId))!.approval_status).toBe('denied');
    await expectStamp(tenant, draftId, null, 1);
  });

  it('treats an artifact past its expiry as gone for every read, before TTL deletes it', async () => {
    const tenant = uniqueTenant('expired');
    const hundredDaysAgo: Clock = { now: () => new Date(Date.now() - 100 * DAY) };
    const [oldId] = await auditArtifacts(tenant, 1, runnerAt(hundredDaysAgo));
    const fresh = await auditArtifacts(tenant, 1);
    const oldTask = (await storedItem(tenant, oldId))!.task_id as string;

    expect(await storedItem(tenant, oldId)).toBeDefined(); // DynamoDB Local never runs TTL
    expect(await artifactRepository.get(tenant, oldId)).toBeUndefined();
    expect((await artifactRepository.getMany(tenant, [oldId, ...fresh])).map((artifact: Artifact) => artifact.artifact_id)).toEqual(fresh);
    expect((await listTaskArtifacts(tenant, oldTask)).map((artifact) => artifact.artifact_id)).not.toContain(oldId);
    await expect(deleteArtifact(tenant, oldId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a retention the plan does not allow and stores nothing', async () => {
    const tenant = uniqueTenant('refused');

    await expect(updateRetention(tenant, null, { type: 'api_key', id: 'key_test' })).rejects.toMatchObject({ code: 'retention_not_allowed_on_plan' });
    await expect(updateRetention(tenant, 365, { type: 'api_key', id: 'key_test' })).rejects.toBeInstanceOf(InvalidRequestError);

    expect(await loadSettings(tenant)).toEqual({ tenant_id: tenant, plan: 'free', version: 0, restamped_version: 0 });
  });

  it('re-stamps existing artifacts page by page, and a crash in the middle of a page resumes from its message', async () => {
    const tenant = uniqueTenant('restamp');
    const artifacts = await auditArtifacts(tenant, 5);
    const settings = await updateRetention(tenant, 30, { type: 'api_key', id: 'key_test' });
    const stamp = stampOf(settings);
    const pages: RestampProgress[] = [];

    // Pages of two tasks: the first two messages run to the end of their page.
    const first: RestampJob = { tenant_id: tenant, version: settings.version };
    pages.push(await restampPage(first, 2));
    pages.push(await restampPage(pages[0].next!, 2));
    const third = pages[1].next!;
    // The worker of the third message (the fifth task) dies after one artifact: the message comes back.
    expect(await artifactRetentionRepository.restamp(tenant, artifacts[8], stamp)).toBe('updated');
    let progress = await restampPage(third, 2);
    pages.push(progress);
    while (progress.next) pages.push((progress = await restampPage(progress.next, 2)));

    expect(pages.map((page) => page.status)).toEqual(['continue', 'continue', 'done']);
    expect(pages.reduce((sum, page) => sum + page.counts.updated, 0)).toBe(artifacts.length - 1);
    expect(pages[2].counts.unchanged).toBe(1);
    for (const id of artifacts) await expectStamp(tenant, id, 30, settings.version);
    expect((await loadSettings(tenant)).restamped_version).toBe(settings.version);
  });

  it('stops a job whose setting is outdated: the newest PATCH wins', async () => {
    const tenant = uniqueTenant('newest');
    await setPlan(tenant, 'pro');
    const artifacts = await auditArtifacts(tenant, 3);
    const thirtyDays = await updateRetention(tenant, 30, { type: 'api_key', id: 'key_test' });
    const firstPage = await restampPage({ tenant_id: tenant, version: thirtyDays.version }, 1);

    const indefinite = await updateRetention(tenant, null, { type: 'api_key', id: 'key_test' });
    const outdated = await restampPage(firstPage.next!, 1);
    expect(outdated).toEqual({ status: 'outdated', counts: { updated: 0, unchanged: 0, gone: 0, newer: 0 } });

    let progress = await restampPage({ tenant_id: tenant, version: indefinite.version }, 1);
    while (progress.next) progress = await restampPage(progress.next, 1);

    for (const id of artifacts) await expectStamp(tenant, id, null, indefinite.version);
    expect(await artifactRetentionRepository.restamp(tenant, artifacts[0], stampOf(thirtyDays))).toBe('newer');
    await expectStamp(tenant, artifacts[0], null, indefinite.version);
    expect((await loadSettings(tenant)).restamped_version).toBe(indefinite.version);
  });

  it('re-stamps at the end of a run the artifacts it stamped from a setting that changed meanwhile', async () => {
    const tenant = uniqueTenant('settle');
    const stale = stampOf(await loadSettings(tenant));
    const changed = await updateRetention(tenant, 10, { type: 'api_key', id: 'key_test' });
    // The run read the settings before the PATCH landed; the re-stamp job may already be past it.
    const lateRunner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: { current: async () => stale, settle: retentionStamps.settle } });

    const artifacts = await auditArtifacts(tenant, 1, lateRunner);

    for (const id of artifacts) await expectStamp(tenant, id, 10, changed.version);
  });
});
