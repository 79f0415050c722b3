import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import type { EventType, ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

const DAY = 24 * 3600 * 1000;
const start = Date.parse('2026-03-01T10:00:00Z');

async function writeEvent(tenantId: string, at: number, type: EventType, taskId: string, agent: string): Promise<ServiceEvent> {
  const event: ServiceEvent = { event_id: newId('evt', at), type, created_at: new Date(at).toISOString(), tenant_id: tenantId, task_id: taskId, agent, data: { task_id: taskId } };
  await documentClient().send(new TransactWriteCommand({ TransactItems: [await eventPut(event)] }));
  return event;
}

async function collect(tenantId: string, query: Omit<Parameters<typeof eventRepository.list>[1], 'cursor'>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await eventRepository.list(tenantId, { ...query, cursor });
    expect(result.events.length).toBeLessThanOrEqual(query.limit);
    ids.push(...result.events.map((event) => event.event_id));
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return ids;
}

describe('event log on DynamoDB Local', () => {
  const tenant = uniqueTenant();
  const written: ServiceEvent[] = [];

  beforeAll(async () => {
    await provisionForTest('events');
    // 60 events over five days with a gap day, two tasks and two agents (written in time order,
    // as a clock writes them: ids are monotonic).
    const times = Array.from({ length: 60 }, (_, index) => start + [0, 1, 3, 4][index % 4] * DAY + index * 60_000).sort((a, b) => a - b);
    for (const [index, at] of times.entries()) {
      const type: EventType = index % 3 === 0 ? 'task.complete' : 'task.progress';
      written.push(await writeEvent(tenant, at, type, index % 2 ? 'tsk_a' : 'tsk_b', index % 5 ? 'sales' : 'ai-readiness-agent'));
    }
  });

  it('pages the whole log oldest first across days and shards, without gaps or duplicates', async () => {
    const ids = await collect(tenant, { limit: 7 });
    expect(ids).toEqual(written.map((event) => event.event_id));
  });

  it('filters by task, agent and type on every page', async () => {
    const byTask = await collect(tenant, { limit: 4, taskId: 'tsk_a' });
    expect(byTask).toEqual(written.filter((event) => event.task_id === 'tsk_a').map((event) => event.event_id));
    const byAgentAndType = await collect(tenant, { limit: 3, agent: 'sales', types: ['task.complete'] });
    expect(byAgentAndType).toEqual(written.filter((event) => event.agent === 'sales' && event.type === 'task.complete').map((event) => event.event_id));
  });

  it('keeps to an after/before window, both exclusive', async () => {
    const after = written[10].created_at;
    const before = written[40].created_at;
    const ids = await collect(tenant, { limit: 6, after, before });
    expect(ids).toEqual(written.slice(11, 40).map((event) => event.event_id));
  });

  it('shows a tenant nothing of another tenant', async () => {
    const result = await eventRepository.list(uniqueTenant(), { limit: 500 });
    expect(result).toEqual({ events: [], nextCursor: null });
  });

  it('rejects a cursor used with other filters', async () => {
    const { nextCursor } = await eventRepository.list(tenant, { limit: 2 });
    await expect(eventRepository.list(tenant, { limit: 2, agent: 'sales', cursor: nextCursor! })).rejects.toMatchObject({ code: 'invalid_cursor' });
  });
});
