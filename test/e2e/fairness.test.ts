import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskSlotRepository } from '#shared/adapters/dynamodb/task-slot-repository';
import { sqsClient } from '#shared/adapters/sqs/client';
import { getStringFromEnv } from '#shared/config/env';
import { TASK_QUEUES, taskWorker } from '#shared/config/topology';
import { QueuePoller } from '#lib/local/queue-poller';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';

// Two tasks per tenant at once, and deferred tasks offered again after 1-32 s.
process.env.GATEHOUSE_TENANT_TASK_CONCURRENCY = '2';
process.env.GATEHOUSE_TASK_DEFER_SECONDS = '1';

const FLOOD = 120;
const task = { agent: 'sales', task_type: 'sales.find_leads', input: {} };

let runtime: TestRuntime;
let poller: QueuePoller | undefined;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;

async function statuses(call: typeof a, ids: string[]): Promise<string[]> {
  const found: string[] = [];
  for (let start = 0; start < ids.length; start += 20) {
    found.push(...(await Promise.all(ids.slice(start, start + 20).map(async (id) => (await call('GET', `/tasks/${id}`)).body.status as string))));
  }
  return found;
}

describe('fair task dispatch across tenants on the local runtime', () => {
  beforeAll(async () => {
    // Workers start only once both tenants' tasks are queued, so the queue order is fixed:
    // all of tenant A's flood first, then tenant B's three tasks.
    runtime = await startTestRuntime('fairness', { workers: false });
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
    await b('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
  });

  afterAll(async () => {
    await poller?.stop();
    await runtime?.stop();
  });

  it('runs a quiet tenant’s tasks while a flooding tenant’s backlog is still mostly waiting, and loses none of either', { timeout: 600_000 }, async () => {
    const flood: string[] = [];
    for (let start = 0; start < FLOOD; start += 20) {
      const created = await Promise.all(Array.from({ length: 20 }, () => a('POST', '/tasks', task)));
      flood.push(...created.map((response) => response.body.task_id as string));
    }
    const quiet: string[] = [];
    for (let index = 0; index < 3; index++) quiet.push((await b('POST', '/tasks', task)).body.task_id);
    expect(flood.filter(Boolean)).toHaveLength(FLOOD);
    expect(quiet.filter(Boolean)).toHaveLength(3);

    const queueUrls = taskWorker.queues.map((name) => getStringFromEnv(Object.values(TASK_QUEUES).find((queue) => queue.name === name)!.urlEnv));
    poller = new QueuePoller(taskWorker, queueUrls, 4);
    poller.start();
    await eventually(async () => ((await statuses(b, quiet)).every((status) => status === 'complete') ? true : undefined), 120_000, 250);

    // Strict queue order would finish all 120 of A's tasks before B's; fair dispatch finishes B's
    // after one pass over A's backlog, while A runs two at a time.
    const floodWhenQuietDone = await statuses(a, flood);
    const floodComplete = floodWhenQuietDone.filter((status) => status === 'complete').length;
    expect(floodComplete).toBeLessThan(FLOOD / 2);

    // Deferral delays the flood; it drops nothing and sends nothing to the dead-letter queue.
    await eventually(async () => ((await statuses(a, flood)).every((status) => status === 'complete') ? true : undefined), 420_000, 1_000);
    for (const url of queueUrls) {
      const deadLetters = await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url.replace(/([^/]+)$/, '$1-dlq'), AttributeNames: ['ApproximateNumberOfMessages'] }));
      expect(deadLetters.Attributes?.ApproximateNumberOfMessages).toBe('0');
    }
  });

  it('leaves no slot taken once every task has finished', async () => {
    const tenantOf = async (call: typeof a) => (await call('GET', '/tasks?limit=1')).body.tasks[0].tenant_id as string | undefined;
    for (const call of [a, b]) {
      const tenant = await tenantOf(call);
      expect(tenant).toBeTruthy();
      expect(await taskSlotRepository.leases(tenant!)).toEqual({});
    }
  });
});
