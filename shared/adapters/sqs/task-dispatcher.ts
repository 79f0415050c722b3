import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '#shared/adapters/sqs/client';
import { getStringFromEnv } from '#shared/config/env';
import { TASK_QUEUES } from '#shared/config/topology';
import { messageBody } from '#shared/adapters/sqs/message-body';
import type { TaskDispatcher } from '#shared/domain/ports';
import type { TaskPriority } from '#shared/domain/task';
import { taskMessageSchema, type TaskMessage } from '#shared/domain/task-message';

/** One queue per priority; consumers drain `high` before `normal` before `low`. */
export class SqsTaskDispatcher implements TaskDispatcher {
  async dispatch(task: { tenant_id: string; task_id: string; priority: TaskPriority }): Promise<void> {
    const message: TaskMessage = taskMessageSchema.parse({ tenant_id: task.tenant_id, task_id: task.task_id });
    await sqsClient().send(new SendMessageCommand({ QueueUrl: getStringFromEnv(TASK_QUEUES[task.priority].urlEnv), MessageBody: messageBody(message) }));
  }
}

export const taskDispatcher = new SqsTaskDispatcher();
