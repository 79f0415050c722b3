import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { fireEventTriggers } from '#shared/services/event-trigger-runs';
import { dispatchChatNotice } from '#shared/adapters/sqs/tool-call-dispatcher';
import { approvalChannels } from '#shared/services/approval-channels';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * The reactions to the table's stream, filtered to inserted `artifact.emitted`, `approval.requested`
 * and `approval.resolved` events and chat-reply outbox items: an artifact starts the tasks of the
 * event triggers waiting for its type; an approval's change and a chat task's end become chat
 * notices for the tool proxy (the only function holding the bot token). Records are handled
 * one after another and each reports its own outcome, so the stream retries from the first that
 * failed; a retried record finds its runs claimed and starts nothing twice.
 */
export const handler = observedHandler(async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
  const report = async (record: DynamoDBRecord): Promise<void> => {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) return;
    const item = unmarshall(image as Record<string, AttributeValue>);
    // A chat-started task ended (its outbox item): the tool proxy posts the outcome in the thread.
    if (item.entity === 'chat_reply') {
      await observeRecord({ tenant_id: item.tenant_id, task_id: item.task_id }, () => dispatchChatNotice({ notice: 'chat_reply', tenant_id: String(item.tenant_id), task_id: String(item.task_id) }));
      return;
    }
    if (item.entity !== 'event') return;
    if (item.type === 'approval.requested' || item.type === 'approval.resolved') {
      const approvalId = String(item.approval_id);
      await observeRecord({ tenant_id: item.tenant_id, approval_id: approvalId, event_type: item.type }, async () => {
        // Only tenants that post approvals to a channel get a notice (and a tool proxy invocation).
        if ((await approvalChannels(String(item.tenant_id))).length > 0) await dispatchChatNotice({ notice: 'approval', tenant_id: String(item.tenant_id), approval_id: approvalId });
      });
      return;
    }
    if (item.type !== 'artifact.emitted') return;
    const serviceEvent = stripKeys<ServiceEvent>(item);
    const ids = { tenant_id: serviceEvent.tenant_id, task_id: serviceEvent.task_id, event_id: serviceEvent.event_id, event_type: serviceEvent.type, correlation_id: serviceEvent.event_id };
    await observeRecord(ids, async () => {
      const runs = await fireEventTriggers(serviceEvent);
      if (runs.length > 0) logger.info('event triggers ran', { runs: runs.map((run) => ({ trigger_id: run.trigger_id, run_id: run.run_id, outcome: run.outcome, task_id: run.task_id })) });
    });
  };
  return processPartialResponse(event, report, processor, { context, processInParallel: false });
});
