import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { webhookRepository } from '#shared/adapters/dynamodb/webhook-repository';
import { sqsClient } from '#shared/adapters/sqs/client';
import { WEBHOOK_DELIVERY_QUEUE } from '#shared/config/topology';
import type { ServiceEvent } from '#shared/domain/event';
import { newId } from '#shared/domain/ids';
import { fanOutEvents } from '#shared/services/webhook-fan-out';
import type { Provisioned } from '#lib/local/provision';
import { provisionForTest, uniqueTenant } from '../support/provisioned';

let provisioned: Provisioned;

function artifactEvent(tenantId: string, taskId: string): ServiceEvent {
  return { event_id: newId('evt'), type: 'artifact.emitted', created_at: new Date().toISOString(), tenant_id: tenantId, task_id: taskId, data: { task_id: taskId } };
}

/** The delivery queue's messages that are visible now (a backstop's delayed first attempt is not). */
async function visibleAttempts(): Promise<{ event_id: string }[]> {
  const found: { event_id: string }[] = [];
  for (let round = 0; round < 10; round++) {
    const { Messages = [] } = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: provisioned.queueUrls[WEBHOOK_DELIVERY_QUEUE.name], MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) break;
    found.push(...Messages.map((message) => JSON.parse(message.Body!) as { event_id: string }));
  }
  return found;
}

describe('webhook fan-out with DynamoDB Local and the SQS emulator', () => {
  beforeAll(async () => {
    provisioned = await provisionForTest('fan-out');
  });

  it('queues a delivery at once when its predecessor, written in the same batch, was sent before the batch looked', async () => {
    const tenantId = uniqueTenant();
    const now = new Date().toISOString();
    const webhook = { webhook_id: newId('whk'), tenant_id: tenantId, url: 'https://hooks.example.test/', events: ['artifact.emitted' as const], status: 'enabled' as const, secret_ciphertext: 'unused', created_at: now, updated_at: now };
    await webhookRepository.create(webhook);
    const taskId = newId('tsk');
    const [first, second] = [artifactEvent(tenantId, taskId), artifactEvent(tenantId, taskId)];
    // A deliverer whose delivery of the task just ended finds the first delivery as soon as it is
    // written and sends it, before the fan-out has written the rest of its batch and looked.
    const stack = documentClient().middlewareStack;
    stack.add((next, context) => async (args) => {
      const result = await next(args);
      const item = (args.input as { Item?: { event_id?: string } }).Item;
      if (context.commandName === 'PutItemCommand' && item?.event_id === first.event_id) {
        const written = (await webhookRepository.getDelivery(tenantId, webhook.webhook_id, first.event_id))!;
        await webhookRepository.recordAttempt(written, { attempt: 1, at: new Date().toISOString(), ok: true, status_code: 204, latency_ms: 3 }, 'succeeded');
      }
      return result;
    }, { step: 'initialize', name: 'sendFirstDeliveryAtOnce', tags: ['TEST'] });
    try {
      const outcomes = await fanOutEvents([first, second]);

      expect(outcomes.get(second.event_id)).toEqual({ queued: 1 });
    } finally {
      stack.remove('sendFirstDeliveryAtOnce');
    }
    expect(await webhookRepository.getDelivery(tenantId, webhook.webhook_id, second.event_id)).toMatchObject({ status: 'pending', previous_event_id: first.event_id });
    // Not a backstop 30 s away: nothing else would send it until then.
    const attempts = await visibleAttempts();
    expect(attempts.map((attempt) => attempt.event_id)).toContain(second.event_id);
  });
});
