import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { mailer } from '#shared/adapters/mail/mailer';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { decisionOf, type Approval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { approvalEvent } from '#shared/services/approval-events';
import { toolNamed } from '#shared/domain/tools';
import { boundIntegration, ToolCallRefused, withIntegration } from '#shared/services/tool-execution';
import { runTool } from '#shared/services/tool-runners';

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
    const started = systemClock.now().getTime();
    const outcome = await execute(approval);
    const executedAt = systemClock.now();
    const execution: NonNullable<Approval['execution']> = { status: outcome.error ? 'failed' : 'executed', executed_at: executedAt.toISOString(), ...outcome };
    const resume = task?.status === 'awaiting_approval' ? { task, decision: decisionOf({ ...approval, execution }) } : undefined;
    const event = approvalEvent('tool_call.executed', approval, {
      tool_call_id: `tcl_${approval.approval_id.slice(4)}`,
      tool: approval.action.type,
      integration_id: outcome.integration_id,
      outcome: outcome.error ? 'failed' : 'succeeded',
      duration_ms: executedAt.getTime() - started,
      ...(outcome.result ? { result: outcome.result } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    if (await approvalRepository.recordExecution(approval, execution, event, resume)) {
      if (resume) await taskDispatcher.dispatch(resume.task).catch(() => undefined);
      return;
    }
  }
  throw new Error(`Tool call of approval ${approvalId} could not be recorded; it will be retried.`);
}

/**
 * Runs the approved action through the agent's bound integration (mail without one: the service's
 * own mailer). A refusal (revoked credentials, a provider that stays down) is an outcome to record,
 * which fails the task; an outage of our own (the table) throws, and the message is retried.
 */
async function execute(approval: Approval): Promise<{ integration_id: string | null; result?: Record<string, unknown>; error?: { code: string; message: string } }> {
  const { type, ...args } = approval.action;
  const tool = toolNamed(type);
  let integrationId: string | null = null;
  try {
    if (!tool?.acts) throw new ToolCallRefused('unknown_tool', `No tool executes actions of type '${type}'.`);
    const integration = await boundIntegration(approval.tenant_id, approval.agent, tool.integration);
    if (!integration) {
      if (type !== 'mail.send') throw new ToolCallRefused('integration_not_bound', `Agent '${approval.agent}' has no ${tool.integration} integration to run '${type}' with.`);
      const sender = mailer();
      const sent = await sender.send({ from: sender.from, to: String(args.to), subject: String(args.subject), body: String(args.body), idempotencyKey: approval.approval_id });
      return { integration_id: null, result: { message_id: sent.message_id, to: args.to } };
    }
    integrationId = integration.integration_id;
    return { integration_id: integrationId, result: await withIntegration(integration, (credentials) => runTool(type, args, integration, credentials, approval.approval_id)) };
  } catch (error) {
    if (error instanceof ToolCallRefused) return { integration_id: integrationId, error: { code: error.code, message: error.message } };
    throw error;
  }
}
