import type { Clock } from '#shared/domain/clock';
import type { ServiceEvent } from '#shared/domain/event';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import type { Task } from '#shared/domain/task';
import type { ToolCallAnswer } from '#shared/domain/tool-proxy';
import type { ToolCallRecord } from '#shared/domain/tools';

/**
 * A read tool's call as a task records it (its record, kept with the task's step `step`) and its
 * `tool_call.executed` event: the same whether a built-in agent or a custom agent's worker called.
 */
export function recordedToolCall(task: Pick<Task, 'tenant_id' | 'task_id' | 'agent'>, step: number, tool: string, answer: ToolCallAnswer, clock: Clock): { record: ToolCallRecord; event: ServiceEvent } {
  const now = clock.now();
  const record: ToolCallRecord = {
    tool_call_id: newId('tcl', now.getTime()),
    task_id: task.task_id,
    step,
    tool,
    integration_id: answer.integration_id,
    outcome: answer.outcome,
    duration_ms: answer.duration_ms,
    created_at: now.toISOString(),
    ...(answer.outcome === 'succeeded' ? { result: answer.result } : { error: answer.error }),
  };
  // Never the arguments or the result: they may hold what the provider returned, not for the event log.
  const data = { tool_call_id: record.tool_call_id, tool, integration_id: record.integration_id, outcome: record.outcome, duration_ms: record.duration_ms, ...(record.error ? { error: { code: record.error.code } } : {}) };
  return { record, event: taskEvent('tool_call.executed', task, data, clock) };
}
