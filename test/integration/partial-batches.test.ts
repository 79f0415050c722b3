import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scanEvent } from '#shared/scans/scan-events';
import { systemClock } from '#shared/domain/clock';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { artifactItem, artifactRepository } from '#shared/adapters/dynamodb/artifact-repository';
import { documentClient, replaceDocumentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { scanRepository } from '#shared/adapters/dynamodb/scan-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import type { Artifact } from '#shared/domain/artifact';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';
import type { Finding, Occurrence } from '#shared/scans/finding';
import { DEFAULT_CRAWL, type Scan } from '#shared/scans/scan';
import { listScanFindings } from '#shared/services/findings';
import { cancelTask } from '#shared/services/tasks';
import { lastOne, partialBatchClient, secondHalf, type Withhold } from '../support/partial-batch-client';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

const real = () => documentClient();
const rawItem = async (key: { pk: string; sk: string }) => (await real().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** Every repository call from here on goes through a client that leaves part of each batch unprocessed. */
function throttleBatches(withhold: Withhold) {
  const partial = partialBatchClient(real(), withhold);
  replaceDocumentClient(partial.client);
  return partial.stats;
}

/** A scan with `count` occurrences and their findings, all dismissed (a finding the listing misses would show as open). */
async function scanWithFindings(tenant: string, count: number): Promise<Scan> {
  const now = new Date().toISOString();
  const scan: Scan = {
    scan_id: newId('scn'), tenant_id: tenant, project_id: newId('prj'), status: 'completed', detectors: ['security'], detector_options: {},
    target: 'https://example.com/', crawl: DEFAULT_CRAWL, metadata: {}, runs: {}, created_at: now, estimated_duration_seconds: 5,
  };
  await scanRepository.createScan(scan, scanEvent('scan.created', scan, {}, systemClock));
  const occurrences: Occurrence[] = Array.from({ length: count }, (_, index) => ({
    detector: 'security', rule_id: `security.rule-${index}`, severity: 'low', title: `Rule ${index}`, description: 'd', location: { type: 'url', url: `https://example.com/${index}` },
    remediation: 'r', references: [], cvss_score: 0, finding_id: `fnd_${String(index).padStart(4, '0')}`, scan_id: scan.scan_id, fingerprint: `fp${index}`,
  }));
  await scanRepository.putOccurrences(tenant, occurrences);
  const findings: Finding[] = occurrences.map((occurrence) => ({ ...occurrence, tenant_id: tenant, project_id: scan.project_id, status: 'dismissed', dismissed_reason: 'accepted_risk', first_seen_at: now, last_seen_at: now, last_scan_id: scan.scan_id }));
  // A few at a time: a burst of connections to DynamoDB Local would hit the client's connect timeout.
  for (let offset = 0; offset < findings.length; offset += 10) await Promise.all(findings.slice(offset, offset + 10).map((finding) => scanRepository.putFinding(finding)));
  return scan;
}

/** A waiting task whose artifact map lists `count` stored artifacts. */
async function taskWithArtifacts(tenant: string, count: number): Promise<{ task: Task; artifacts: Artifact[] }> {
  const now = new Date().toISOString();
  const taskId = newId('tsk');
  const artifacts: Artifact[] = Array.from({ length: count }, () => ({ artifact_id: newId('art'), tenant_id: tenant, task_id: taskId, agent: 'ai-readiness-agent', type: 'report', created_at: now, data: { ok: true } }));
  for (const artifact of artifacts) await real().send(new PutCommand({ TableName: tableName(), Item: artifactItem(artifact) }));
  const task = await storedTask(tenant, { task_id: taskId, artifacts: Object.fromEntries(artifacts.map((artifact, step) => [artifact.artifact_id, { artifact_id: artifact.artifact_id, type: 'report', created_at: now, step }])) });
  return { task, artifacts };
}

describe('callers of batch calls get everything or an error under throttling', () => {
  beforeAll(async () => {
    await provisionForTest('partial-batches');
  });

  afterEach(() => {
    replaceDocumentClient();
  });

  it('lists every finding of a scan with its stored status although each batch read is half unprocessed', async () => {
    const tenant = uniqueTenant();
    const stats = throttleBatches(secondHalf);
    // Written through the throttled client as well: putOccurrences batches its writes.
    const scan = await scanWithFindings(tenant, 120);

    const listing = await listScanFindings(tenant, scan.scan_id, { limit: 120 });

    expect(listing.data).toHaveLength(120);
    expect(listing.data.filter((row) => row.status !== 'dismissed')).toEqual([]);
    expect((await scanRepository.getFindings(tenant, listing.data.map((row) => row.id))).size).toBe(120);
    expect(stats.withheld).toBeGreaterThan(0);
  });

  it('fails the findings listing, rather than show findings without their status, when part of a read is never processed', async () => {
    const tenant = uniqueTenant();
    const scan = await scanWithFindings(tenant, 3);
    throttleBatches(lastOne);

    await expect(listScanFindings(tenant, scan.scan_id, { limit: 10 })).rejects.toMatchObject({ name: 'ThrottlingException' });
  });

  it('deletes every artifact of a cancelled task although each batch write is half unprocessed', async () => {
    const tenant = uniqueTenant();
    const { task, artifacts } = await taskWithArtifacts(tenant, 30);
    const stats = throttleBatches(secondHalf);

    const cancelled = await cancelTask(tenant, task.task_id);

    replaceDocumentClient();
    expect(cancelled.status).toBe('cancelled');
    const left = await Promise.all(artifacts.map((artifact) => rawItem(keys.artifact(tenant, artifact.artifact_id))));
    expect(left.filter(Boolean)).toEqual([]);
    expect((await taskRepository.load(tenant, task.task_id))?.artifacts).toEqual({});
    expect(stats.withheld).toBeGreaterThan(0);
  });

  it('keeps the artifact map of a cancelled task when a delete is never processed, so a repeat can finish the job', async () => {
    const tenant = uniqueTenant();
    const { task, artifacts } = await taskWithArtifacts(tenant, 4);
    throttleBatches(lastOne);

    await expect(cancelTask(tenant, task.task_id)).rejects.toMatchObject({ name: 'ThrottlingException' });

    replaceDocumentClient();
    const stored = (await taskRepository.load(tenant, task.task_id))!;
    expect(stored.status).toBe('cancelled');
    expect(Object.keys(stored.artifacts).sort()).toEqual(artifacts.map((artifact) => artifact.artifact_id).sort());
    await taskRepository.discardArtifacts(stored);
    const left = await Promise.all(artifacts.map((artifact) => rawItem(keys.artifact(tenant, artifact.artifact_id))));
    expect(left.filter(Boolean)).toEqual([]);
  });

  it('reads every artifact, every task of a per-agent listing and every delivery asked for under half-unprocessed batches', async () => {
    const tenant = uniqueTenant();
    const { artifacts } = await taskWithArtifacts(tenant, 12);
    const tasks = await Promise.all(Array.from({ length: 5 }, () => storedTask(tenant)));
    const webhookId = newId('whk');
    const eventIds = Array.from({ length: 7 }, () => newId('evt'));
    for (const eventId of eventIds) {
      await real().send(new PutCommand({ TableName: tableName(), Item: { ...keys.delivery(tenant, webhookId, eventId), entity: 'delivery', tenant_id: tenant, webhook_id: webhookId, event_id: eventId, status: 'pending', attempt_count: 0 } }));
    }
    const stats = throttleBatches(secondHalf);

    const read = await artifactRepository.getMany(tenant, artifacts.map((artifact) => artifact.artifact_id));
    // gsi2 copies keys and status only: the listing reads its tasks from the table in a batch.
    const listed = await taskRepository.list(tenant, { limit: 20, agent: 'ai-readiness-agent' });
    const deliveries = await webhookRepository.getDeliveries(tenant, webhookId, eventIds);

    expect(read.map((artifact) => artifact.artifact_id)).toEqual(artifacts.map((artifact) => artifact.artifact_id));
    expect(listed.tasks.map((listedTask) => listedTask.task_id).sort()).toEqual([...tasks.map((stored) => stored.task_id), artifacts[0].task_id].sort());
    expect(deliveries.map((delivery) => delivery.event_id).sort()).toEqual([...eventIds].sort());
    expect(stats.withheld).toBeGreaterThan(0);
  });
});
