import { scheduler } from '#shared/adapters/scheduler/scheduler';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { dispatchToolCall } from '#shared/adapters/sqs/tool-call-dispatcher';
import type { Approval } from '#shared/domain/approval';
import type { Task } from '#shared/domain/task';
import { logger } from '#shared/observability/logger';

/**
 * What follows a committed resolution (or expiry): its expiry schedule is cancelled, an approved
 * action goes to the tool proxy, a denied task resumes. Each is repeated by recovery if lost here.
 */
export async function afterResolution(approval: Approval, resumedTask: Task | undefined, toolCall: boolean): Promise<void> {
  await scheduler().cancel(approval.approval_id).catch(() => undefined);
  if (toolCall) await dispatchToolCall(approval).catch((error: Error) => logger.warn('tool call dispatch failed; recovery will retry', { approval_id: approval.approval_id, error }));
  if (resumedTask) await taskDispatcher.dispatch(resumedTask).catch(() => undefined);
}
