import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { getStringFromEnv } from '#shared/config/env';
import { TASK_QUEUES } from '#shared/config/topology';
import { messageBody } from '#shared/adapters/sqs/message-body';
import type { TaskDispatcher } from '#shared/domain/ports';
import type { TaskPriority } from '#shared/domain/task';
import { taskMessageSchema, type TaskMessage } from '#shared/domain/task-message';

/**
 * Sends a task message. `MessageGroupId` is the tenant: on AWS that makes the standard task
 * queues SQS fair queues, which hand out a quiet tenant's messages before a noisy tenant's backlog.
 * fauxqs accepts the attribute on standard queues and ignores it; locally the tenant cap does the work.
 */
async function send(queueUrl: string, message: TaskMessage, delaySeconds?: number): Promise<void> {
  // A deferred message may still carry its envelope's correlation id; messageBody sets the current one.
  const { correlation_id: _envelope, ...fields } = message as TaskMessage & { correlation_id?: string };
  const body = taskMessageSchema.parse(fields);
  await sqsClient().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: messageBody(body), MessageGroupId: body.tenant_id, DelaySeconds: delaySeconds }));
}

/** One queue per priority; consumers drain `high` before `normal` before `low`. */
export class SqsTaskDispatcher implements TaskDispatcher {
  async dispatch(task: { tenant_id: string; task_id: string; priority: TaskPriority; runs_on?: 'worker' }): Promise<void> {
    // A custom agent's task waits in its agent's claim queue for a worker, never for the runtime.
    if (task.runs_on === 'worker') return;
    await send(getStringFromEnv(TASK_QUEUES[task.priority].urlEnv), { tenant_id: task.tenant_id, task_id: task.task_id });
  }

  /**
   * Puts a message back on the queue it came from (found by the queue name that ends the record's
   * `eventSourceARN` and each task queue's URL), after `delaySeconds`. A new message starts with a
   * receive count of zero, so deferrals never push a task towards the dead-letter queue.
   */
  async defer(message: TaskMessage, eventSourceArn: string, delaySeconds: number): Promise<void> {
    const queueName = eventSourceArn.split(':').pop() ?? '';
    const urls = Object.values(TASK_QUEUES).map((queue) => getStringFromEnv(queue.urlEnv));
    const queueUrl = urls.find((url) => url.split('/').pop() === queueName) ?? getStringFromEnv(TASK_QUEUES.normal.urlEnv);
    await send(queueUrl, message, delaySeconds);
  }
}

export const taskDispatcher = new SqsTaskDispatcher();
