import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskSlotRepository } from '#shared/adapters/dynamodb/task-slot-repository';
import { sqsClient } from '#shared/adapters/sqs/client';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { TASK_QUEUES } from '#shared/config/topology';
import { runWithTenantSlot } from '#shared/services/task-fairness';
import { setTenantLimits } from '#shared/services/tenant-limits';
import type { Provisioned } from '#lib/local/provision';
import { eventually } from '../../support/local-runtime';
import { provisionForTest, uniqueTenant } from '../../support/provisioned';

const LEASE = 60_000;
let provisioned: Provisioned;

describe('per-tenant task slots on DynamoDB Local', () => {
  beforeAll(async () => {
    provisioned = await provisionForTest('slots');
  });

  it('grants exactly `cap` of many parallel claims, and a released slot to the next one', async () => {
    const tenant = uniqueTenant();
    const now = Date.now();

    const granted = await Promise.all(Array.from({ length: 30 }, (_, index) => taskSlotRepository.acquire(tenant, `tsk_${index}`, 3, now, LEASE)));

    expect(granted.filter(Boolean)).toHaveLength(3);
    const holder = `tsk_${granted.indexOf(true)}`;
    expect(await taskSlotRepository.acquire(tenant, 'tsk_late', 3, now, LEASE)).toBe(false);
    await taskSlotRepository.release(tenant, holder);
    expect(await taskSlotRepository.acquire(tenant, 'tsk_late', 3, now, LEASE)).toBe(true);
    expect(Object.keys(await taskSlotRepository.leases(tenant))).toHaveLength(3);
  });

  it('lets a redelivered task keep its own slot, and takes back the slots of dead workers', async () => {
    const tenant = uniqueTenant();
    const now = Date.now();
    expect(await taskSlotRepository.acquire(tenant, 'tsk_a', 2, now, LEASE)).toBe(true);
    expect(await taskSlotRepository.acquire(tenant, 'tsk_b', 2, now, LEASE)).toBe(true);

    expect(await taskSlotRepository.acquire(tenant, 'tsk_a', 2, now + 1_000, LEASE)).toBe(true);
    expect(await taskSlotRepository.acquire(tenant, 'tsk_c', 2, now + 1_000, LEASE)).toBe(false);
    // Both workers died: after their leases end, new tasks get the slots.
    const later = now + 2 * LEASE;
    expect(await taskSlotRepository.acquire(tenant, 'tsk_c', 2, later, LEASE)).toBe(true);
    expect(await taskSlotRepository.acquire(tenant, 'tsk_d', 2, later, LEASE)).toBe(true);
    expect(Object.keys(await taskSlotRepository.leases(tenant)).sort()).toEqual(['tsk_c', 'tsk_d']);
  });

  it('sends a task over its tenant’s cap back to its own queue, delayed and grouped by tenant, and runs nothing', async () => {
    const tenant = uniqueTenant();
    await setTenantLimits(tenant, { rate_per_second: undefined, burst: undefined, task_concurrency: '1' });
    const queueUrl = provisioned.queueUrls[TASK_QUEUES.low.name];
    const arn = `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`;
    let runs = 0;
    const run = async () => {
      runs++;
      return 'complete' as const;
    };
    expect(await taskSlotRepository.acquire(tenant, 'tsk_running', 1, Date.now(), LEASE)).toBe(true);

    const outcome = await runWithTenantSlot({ tenant_id: tenant, task_id: 'tsk_waiting', deferrals: 2 }, arn, run);

    expect(outcome).toBe('deferred');
    expect(runs).toBe(0);
    const message = await eventually(async () => {
      const { Messages } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      return Messages?.find((candidate) => candidate.Body?.includes('tsk_waiting'));
    }, 20_000, 250);
    expect(JSON.parse(message.Body!)).toEqual({ tenant_id: tenant, task_id: 'tsk_waiting', deferrals: 3 });

    await taskSlotRepository.release(tenant, 'tsk_running');
    expect(await runWithTenantSlot({ tenant_id: tenant, task_id: 'tsk_waiting' }, arn, run)).toBe('complete');
    expect(runs).toBe(1);
    expect(await taskSlotRepository.leases(tenant)).toEqual({});
  });

  it('dispatches with the tenant as MessageGroupId, which the emulator’s standard queues accept', async () => {
    const tenant = uniqueTenant();

    await taskDispatcher.dispatch({ tenant_id: tenant, task_id: 'tsk_grouped', priority: 'high' });

    const { Messages } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: provisioned.queueUrls[TASK_QUEUES.high.name], MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    expect(Messages?.map((message) => JSON.parse(message.Body!))).toContainEqual({ tenant_id: tenant, task_id: 'tsk_grouped' });
  });
});
