import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { workerTaskRepository } from '#shared/adapters/dynamodb/worker-task-repository';
import { isCustomAgent, type AgentDeployment } from '#shared/domain/agent-deployment';
import { customTaskType, type CustomAgentManifest } from '#shared/domain/custom-agent';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { taskDispatcher } from '#shared/adapters/sqs/task-dispatcher';
import { findAgentListing, unknownAgentError } from '#shared/agents/directory';
import { systemClock } from '#shared/domain/clock';
import { ConflictError, InvalidRequestError, NotFoundError, type FieldError } from '#shared/domain/errors';
import type { SessionMessage } from '#shared/domain/session';
import type { ServiceEvent } from '#shared/domain/event';
import type { TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { sessionRepository, userMessageWrites } from '#shared/adapters/dynamodb/session-repository';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import { UNSTORABLE_NUMBER_MESSAGE, unstorableNumberPaths, withUnstorableNumbersAsNull } from '#shared/domain/storable-number';
import type { Task, TaskPriority, TaskSource } from '#shared/domain/task';
import { initialStatus, type TaskShape } from '#shared/domain/task-state';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';

// Task creation is the one task path that dispatches; it lives apart from the reads and the
// cancel (shared/services/tasks.ts) so that their functions bundle neither the SQS client nor the
// agent catalog.

export interface CreateTaskRequest {
  shape: TaskShape;
  /** The slug (slug shape) or agent_id (identifier shape) the client named. */
  agentReference: string;
  task_type: string;
  input: Record<string, unknown>;
  priority: TaskPriority;
  session_id?: string;
  /** Where the task came from (`api`, `dashboard`, a trigger's run). */
  trigger: TaskSource;
  /** The session message that starts the task, written in the task's own transaction. */
  message?: { message_id: string; content: string };
  /** Further writes of the creation's transaction, given the new task (a trigger's run record). */
  with?: (task: Task) => { items: TransactItem[]; events?: ServiceEvent[] };
}

/** The creation's conditions did not hold (a trigger's run claimed already, the trigger gone): nothing was written. */
export class TaskNotCreated extends Error {}

/**
 * A task may join a session only if it exists in this tenant (404 `session_not_found`), is open
 * (409 `session_closed`) and is the same agent's (400 `session_agent_mismatch`). The creation's
 * transaction checks open and agent again, so a racing close cannot let a task in.
 */
async function assertSessionTakesTask(tenantId: string, sessionId: string, agentSlug: string): Promise<void> {
  const session = await sessionRepository.get(tenantId, sessionId);
  if (!session) throw new NotFoundError('session', sessionId);
  if (session.status !== 'open') throw new ConflictError('session_closed', `Session '${sessionId}' is closed; start a new session.`);
  if (session.agent !== agentSlug) {
    throw new InvalidRequestError(`Session '${sessionId}' belongs to agent '${session.agent}', not '${agentSlug}'.`, [{ path: 'body.session_id', message: `belongs to agent '${session.agent}'` }], 'session_agent_mismatch');
  }
}

/**
 * Creates a task for a deployed agent and hands it to the workers. Input that breaks the task
 * type's schema is accepted here and fails the task later with `malformed_input`; so is input
 * holding a number the table cannot keep as sent: it is stored as null, and the run fails naming it.
 */
/** The deployed agent a creation names, by slug (a built-in's alias too) or by id; 400 when there is none. */
async function namedDeployment(tenantId: string, request: CreateTaskRequest): Promise<AgentDeployment> {
  const field = request.shape === 'slug' ? 'body.agent' : 'body.agent_id';
  if (request.shape === 'id') {
    const deployment = await agentRepository.findById(tenantId, request.agentReference);
    if (!deployment) throw new InvalidRequestError(`No deployed agent has id '${request.agentReference}'.`, [{ path: field, message: 'unknown agent_id' }], 'agent_not_deployed');
    return deployment;
  }
  const builtIn = findAgentListing(request.agentReference);
  const deployment = await agentRepository.findBySlug(tenantId, builtIn?.slug ?? request.agentReference);
  if (deployment) return deployment;
  // A slug that is neither built in nor one of the tenant's custom agents names nothing.
  if (!builtIn) throw unknownAgentError(request.agentReference, field);
  throw new InvalidRequestError(`Agent '${request.agentReference}' is not deployed for this tenant. Deploy it with POST /v1/agents/deploy first.`, [{ path: field, message: 'not deployed' }], 'agent_not_deployed');
}

/** The task types a deployed agent takes: a built-in's from the directory, a custom agent's from its manifest. */
function taskTypesOf(deployment: AgentDeployment): readonly string[] {
  return isCustomAgent(deployment) ? deployment.manifest.task_types.map((taskType) => taskType.task_type) : (findAgentListing(deployment.agent_slug)?.task_types ?? []);
}

export async function createTask(tenantId: string, request: CreateTaskRequest): Promise<Task> {
  const deployment = await namedDeployment(tenantId, request);
  const taskTypes = taskTypesOf(deployment);
  if (!taskTypes.includes(request.task_type)) {
    throw new InvalidRequestError(`Agent '${deployment.agent_slug}' has no task type '${request.task_type}'.`, [{ path: 'body.task_type', message: `must be one of: ${taskTypes.join(', ')}` }], 'unknown_task_type');
  }
  if (request.session_id) await assertSessionTakesTask(tenantId, request.session_id, deployment.agent_slug);
  const unstorable = unstorableNumberPaths(request.input);
  // A custom agent's input is checked before anything is written, so nothing that could throw runs after the write.
  const violations = isCustomAgent(deployment) && unstorable.length === 0 ? await customInputViolations(tenantId, deployment, request) : [];
  const now = systemClock.now();
  const task: Task = {
    task_id: newId('tsk', now.getTime()),
    tenant_id: tenantId,
    shape: request.shape,
    agent: deployment.agent_slug,
    agent_id: deployment.agent_id,
    task_type: request.task_type,
    ...(unstorable.length > 0
      ? { input: withUnstorableNumbersAsNull(request.input), input_violations: unstorable.map((path) => ({ path: ['input', ...path].join('.'), message: UNSTORABLE_NUMBER_MESSAGE })) }
      : { input: request.input }),
    status: initialStatus(request.shape),
    priority: request.priority,
    ...(request.session_id ? { session_id: request.session_id } : {}),
    trigger: request.trigger,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    step: 0,
    artifacts: {},
    decisions: {},
    ...(isCustomAgent(deployment) ? { runs_on: 'worker' as const } : {}),
  };
  const message: SessionMessage | undefined =
    request.message && request.session_id
      ? { message_id: request.message.message_id, session_id: request.session_id, role: 'user', content: request.message.content, created_at: task.created_at, task_id: task.task_id }
      : undefined;
  const messageWrites = message ? userMessageWrites(tenantId, message, task.agent) : { items: [], events: [] };
  const more = request.with?.(task) ?? { items: [] };
  const created = await taskRepository.create(task, taskEvent('task.created', task, { agent: task.agent, task_type: task.task_type, status: task.status }, systemClock), {
    items: [...messageWrites.items, ...more.items],
    events: [...messageWrites.events, ...(more.events ?? [])],
  });
  if (!created) {
    // The session closed (or changed) between the check and the write: say so as the check would.
    if (request.session_id) await assertSessionTakesTask(tenantId, request.session_id, deployment.agent_slug);
    throw new TaskNotCreated(`Task ${task.task_id} was not created: a condition of its transaction did not hold.`);
  }
  addLogContext({ task_id: task.task_id });
  recordMetric('tasksCreated', 1, { agent: task.agent, task_type: task.task_type });
  if (isCustomAgent(deployment)) return rejectMalformed(task, task.input_violations?.length ? task.input_violations : violations);
  // The task is durable before it is dispatched; a lost dispatch is re-sent from the active-task
  // index when the runtime starts (and by the stuck-task sweeper), so the request still succeeds.
  await taskDispatcher.dispatch(task).catch((error) => {
    logger.warn('task dispatch failed; recovery will re-dispatch', { task_id: task.task_id, error: error as Error });
  });
  return task;
}

/**
 * What breaks a custom agent's input schema, in the tenant's scope (the schema's `$id` and `$ref`
 * resolve within it alone). A schema that no longer compiles is a violation too, never an exception.
 */
async function customInputViolations(tenantId: string, deployment: AgentDeployment & { manifest: CustomAgentManifest }, request: CreateTaskRequest): Promise<FieldError[]> {
  const taskType = customTaskType(deployment.manifest, request.task_type)!;
  // Loaded here only: the schema validator is large, and the built-in agents' tasks are checked by their runner.
  const { validateAgainstSchema } = await import('#shared/domain/input-validation');
  return validateAgainstSchema(taskType.input_schema, request.input, tenantId);
}

/**
 * A custom agent's task waits in its agent's claim queue; input that breaks its task type's schema
 * fails it at once (`malformed_input`), so no worker ever sees it. Should this process die first,
 * the claim that finds it fails it instead (shared/services/worker-claims.ts).
 */
async function rejectMalformed(task: Task, violations: FieldError[]): Promise<Task> {
  if (violations.length === 0) return task;
  const error = { code: 'malformed_input', message: `The input does not match the ${task.task_type} input schema.`, details: violations };
  const event = taskEvent('task.failed', task, { error }, systemClock);
  if (!(await workerTaskRepository.reject(task, error, event))) return task;
  return { ...task, status: 'failed', error, completed_at: event.created_at, updated_at: event.created_at };
}
