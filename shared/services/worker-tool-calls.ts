import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import { toolProxy } from '#shared/adapters/lambda/tool-proxy-client';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError } from '#shared/domain/errors';
import { recordedToolCall } from '#shared/domain/tool-call-record';
import type { Caller } from '#shared/domain/roles';
import type { ToolCallRecord } from '#shared/domain/tools';
import { checkedTool, declaredTaskType } from '#shared/services/worker-checks';
import { leasedTask, withLeasedTask } from '#shared/services/worker-leases';

/** A read tool through the tool proxy with the agent's bound integration; the call is recorded as the task's next step. */
export async function callWorkerTool(caller: Caller, taskId: string, request: { lease_id: string; tool: string; args: Record<string, unknown> }): Promise<ToolCallRecord> {
  const task = await leasedTask(caller, taskId, request.lease_id);
  const taskType = await declaredTaskType(task);
  const tool = checkedTool(taskType, request.tool, request.args, 'body.tool', 'body.args');
  if (!tool) throw new InvalidRequestError(`'${request.tool}' is not a Gatehouse tool.`, [{ path: 'body.tool', message: 'is not a Gatehouse tool' }], 'unknown_tool');
  if (tool.acts) {
    throw new InvalidRequestError(`'${request.tool}' acts on the outside world: ask for it with POST /v1/tasks/${taskId}/approvals, and Gatehouse runs it once approved.`, [{ path: 'body.tool', message: 'needs an approval' }], 'tool_requires_approval');
  }
  const answer = await toolProxy.callTool({ action: 'call_tool', tenant_id: task.tenant_id, task_id: task.task_id, agent: task.agent, tool: request.tool, args: request.args });
  return withLeasedTask(caller, taskId, request.lease_id, async (current) => {
    const { record, event } = recordedToolCall(current, current.step + 1, request.tool, answer, systemClock);
    return (await workerTaskRepository.recordToolCall(current, { leaseId: request.lease_id }, record, event)) ? record : undefined;
  });
}
