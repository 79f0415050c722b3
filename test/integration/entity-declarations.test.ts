import { beforeAll, describe, expect, it } from 'vitest';
import { scanEvent } from '#shared/scans/scan-events';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { ENTITIES } from '#shared/adapters/dynamodb/entities/all';
import { INDEX_KEYS, type IndexName } from '#shared/adapters/dynamodb/entities/entity';
import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { resolveApproval } from '#shared/services/approvals';
import { retentionStamps } from '#shared/services/retention-stamps';
import { cancelTask } from '#shared/services/tasks';
import { DEFAULT_CRAWL, type Scan } from '#shared/scans/scan';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

type Item = Record<string, NativeAttributeValue>;

const runner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps });
const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop.' },
  tone: 'concise',
};

async function everyItem(): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** A sales task parked on its approval, the approval then resolved as given (or left pending). */
async function approvalFlow(tenant: string, decision?: 'approved' | 'denied'): Promise<void> {
  const task = await storedTask(tenant, { agent: 'sales', task_type: 'sales.draft_email', input: draftInput });
  expect(await runner.run(tenant, task.task_id)).toBe('paused');
  if (!decision) return;
  const { approvals } = await approvalRepository.list(tenant, { status: 'pending', taskId: task.task_id, limit: 10 });
  await resolveApproval(tenant, approvals[0].approval_id, { decision }, { type: 'api_key', id: 'key_test' });
}

function newScan(tenant: string): Scan {
  return {
    scan_id: newId('scn'), tenant_id: tenant, project_id: newId('prj'), status: 'pending', detectors: ['security'], detector_options: {},
    target: 'https://example.com/', crawl: DEFAULT_CRAWL, metadata: {}, runs: { security: { status: 'pending' } }, created_at: new Date().toISOString(), estimated_duration_seconds: 5,
  };
}

describe('the items the repositories write agree with their entity declarations', () => {
  beforeAll(async () => {
    await provisionForTest('entities');
  });

  it('carries a declared entity, its tenant first, and exactly the index keys its sparse rules say', async () => {
    const tenant = uniqueTenant();
    // Tasks in every state the index rules tell apart, with their events and artifacts.
    await storedTask(tenant);
    await storedTask(tenant, { shape: 'id' });
    const started = await storedTask(tenant);
    await taskRepository.start(started, taskEvent('task.started', started, {}, systemClock));
    await cancelTask(tenant, (await storedTask(tenant)).task_id);
    const completed = await storedTask(tenant);
    expect(await runner.run(tenant, completed.task_id)).toBe('complete');
    // Approvals pending, approved (owed to the tool proxy) and denied.
    await approvalFlow(tenant);
    await approvalFlow(tenant, 'approved');
    await approvalFlow(tenant, 'denied');
    // Scans pending and cancelled, and a project.
    await scanRepository.createProject({ project_id: newId('prj'), tenant_id: tenant, name: 'Site', target: 'https://example.com/', default_detectors: ['security'], crawl: DEFAULT_CRAWL, created_at: new Date().toISOString(), updated_at: new Date().toISOString() });
    const pending = newScan(tenant);
    await scanRepository.createScan(pending, scanEvent('scan.created', pending, {}, systemClock));
    const cancelled = newScan(tenant);
    await scanRepository.createScan(cancelled, scanEvent('scan.created', cancelled, {}, systemClock));
    await scanRepository.cancelScan(cancelled, scanEvent('scan.cancelled', cancelled, {}, systemClock));

    const items = await everyItem();
    const byName = new Map<string, (typeof ENTITIES)[number]>(ENTITIES.map((entity) => [entity.entity, entity]));
    const problems: string[] = [];
    for (const item of items) {
      const entity = byName.get(item.entity);
      const label = `${item.entity} ${item.pk}|${item.sk}`;
      if (!entity) {
        problems.push(`${label}: no entity declares it`);
        continue;
      }
      if (entity.tenantScoped && item.tenant_id && !String(item.pk).startsWith(`TENANT#${item.tenant_id}`)) problems.push(`${label}: key does not start with its tenant`);
      for (const index of Object.keys(INDEX_KEYS) as IndexName[]) {
        // An entity may enter one index through several memberships (an approval's two in gsi3): at most one holds at a time.
        const holding = entity.indexes.filter((membership) => membership.index === index && (membership.sparse?.holds(item) ?? true));
        const inIndex = item[INDEX_KEYS[index].partitionKey] !== undefined;
        if (holding.length > 1) problems.push(`${label}: in ${index} through ${holding.map((membership) => membership.key).join(' and ')} at once`);
        if (inIndex !== (holding.length > 0)) problems.push(`${label} (status ${item.status}): ${inIndex ? 'in' : 'not in'} ${index}, declared ${holding[0]?.key ?? 'none'}`);
      }
    }

    expect(problems).toEqual([]);
    // The flows above reached every kind of record they were meant to.
    const kinds = new Set(items.map((item) => item.entity as string));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['approval', 'artifact', 'event', 'event_day', 'project', 'scan', 'schedule', 'task']));
    const statuses = (entity: string) => new Set(items.filter((item) => item.entity === entity).map((item) => item.status));
    expect(statuses('task')).toEqual(new Set(['queued', 'pending', 'running', 'cancelled', 'complete', 'awaiting_approval']));
    expect(statuses('approval')).toEqual(new Set(['pending', 'approved', 'denied']));
    expect(statuses('scan')).toEqual(new Set(['pending', 'cancelled']));
  }, 60_000);
});
