import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { mailer } from '#shared/adapters/mail/mailer';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { decisionOf, type Approval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { approvalEvent } from '#shared/services/approval-events';

/** Recording a finished tool call that loses a race is re-read and tried again this many times. */
const ATTEMPTS = 4;

/**
 * The tool proxy: executes an approved action exactly once per approval (the mailer is keyed by
 * the approval id), records `tool_call.executed` and resumes the task. Safe to repeat at any point.
 */
export async function executeToolCall(tenantId: string, approvalId: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const approval = await approvalRepository.get(tenantId, approvalId);
    if (!approval || approval.status !== 'approved') return;
    const task = await taskRepository.load(tenantId, approval.task_id);
    if (approval.execution) {
      if (task?.status === 'awaiting_approval' && !task.decisions?.[String(approval.step)]) {
        if (await approvalRepository.resumeTask(task, approval.step, decisionOf(approval), systemClock.now().toISOString())) await taskDispatcher.dispatch(task).catch(() => undefined);
      }
      return;
    }
    const result = await execute(approval);
    const execution = { status: 'executed' as const, executed_at: systemClock.now().toISOString(), result };
    const resume = task?.status === 'awaiting_approval' ? { task, decision: decisionOf(approval) } : undefined;
    const event = approvalEvent('tool_call.executed', approval, { tool: approval.action.type, result });
    if (await approvalRepository.recordExecution(approval, execution, event, resume)) {
      if (resume) await taskDispatcher.dispatch(resume.task).catch(() => undefined);
      return;
    }
  }
  throw new Error(`Tool call of approval ${approvalId} could not be recorded; it will be retried.`);
}

async function execute(approval: Approval): Promise<Record<string, unknown>> {
  const { action } = approval;
  if (action.type !== 'mail.send') throw new Error(`No tool executes actions of type '${action.type}'.`);
  const sender = mailer();
  const sent = await sender.send({ from: sender.from, to: String(action.to), subject: String(action.subject), body: String(action.body), idempotencyKey: approval.approval_id });
  return { message_id: sent.message_id, to: action.to };
}
