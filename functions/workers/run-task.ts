import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSRecord, Context, SQSBatchResponse } from 'aws-lambda';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { toolProxy } from '#shared/adapters/lambda/tool-proxy-client';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import { taskMessageSchema } from '#shared/domain/task-message';
import { retrySoon } from '#shared/adapters/sqs/retry-soon';
import { parseMessageBody } from '#shared/adapters/sqs/message-body';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { observeRecord } from '#shared/observability/record-context';
import { sessionViews } from '#shared/services/session-views';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { approvalGate } from '#shared/services/approval-gate';
import { retentionStamps } from '#shared/services/retention-stamps';
import { runWithTenantSlot } from '#shared/services/task-fairness';

const processor = new BatchProcessor(EventType.SQS);
const runner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps, sessions: sessionViews, tools: toolProxy });

/**
 * Runs one task per message. A message that fails (the database did not answer) is reported in
 * `batchItemFailures` and redelivered; the runner is idempotent, so redelivery is always safe.
 */
async function runRecord(record: SQSRecord): Promise<void> {
  const message = parseMessageBody(record, taskMessageSchema, 'task-worker');
  if (!message) return;
  await observeRecord({ message_id: record.messageId, ...message }, async () => {
    // At most N tasks per tenant at once; a message over the cap comes back later (docs/limits.md).
    const outcome = await runWithTenantSlot(message, record.eventSourceARN, () => runner.run(message.tenant_id, message.task_id));
    logger.info('task run finished', { outcome });
  });
}

export const handler = observedHandler(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
  processPartialResponse(event, retrySoon(runRecord), processor, { context }));
