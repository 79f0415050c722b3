import type { CustomTaskType } from '#shared/domain/custom-agent';
import { InvalidRequestError } from '#shared/domain/errors';
import type { Task } from '#shared/domain/task';
import { toolArgsViolations, toolNamed } from '#shared/domain/tools';
import { customTaskTypeOf } from '#shared/services/custom-manifests';

/**
 * What a worker's calls that add to its task are checked against (docs/workers.md): the task
 * type as the agent's manifest declares it, and the tools it declares.
 */

/** The task type the task was created with, as the agent's manifest declares it. */
export async function declaredTaskType(task: Task): Promise<CustomTaskType> {
  const taskType = await customTaskTypeOf(task.tenant_id, task.agent, task.task_type);
  if (!taskType) throw new Error(`Agent '${task.agent}' of task ${task.task_id} declares no task type '${task.task_type}'.`);
  return taskType;
}

/**
 * A Gatehouse tool named as an action or a call must be one the task type declares; its
 * arguments are checked now (an acting tool's too, so a person never approves what cannot run).
 * `at` is where the request names the tool, `argsAt` where its arguments are. Undefined when
 * `name` is no Gatehouse tool.
 */
export function checkedTool(taskType: CustomTaskType, name: string, args: Record<string, unknown>, at: string, argsAt: string) {
  const tool = toolNamed(name);
  if (!tool) return undefined;
  if (!(taskType.tools ?? []).includes(name)) {
    throw new InvalidRequestError(`Task type '${taskType.task_type}' does not declare tool '${name}' in its manifest.`, [{ path: at, message: `is not among the task type's tools (${(taskType.tools ?? []).join(', ') || 'none'})` }], 'tool_not_declared');
  }
  const violations = toolArgsViolations(tool, args);
  if (violations.length > 0) {
    // `args.<path>: message` from the tool's schema, placed where this request holds the arguments.
    const errors = violations.map((violation) => ({ path: `${argsAt}${violation.slice('args'.length, violation.indexOf(':'))}`, message: violation.slice(violation.indexOf(':') + 2) }));
    throw new InvalidRequestError(`The arguments of '${name}' are invalid.`, errors);
  }
  return tool;
}
