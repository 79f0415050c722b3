import type { ApprovalDecision } from '#shared/agents/agent';
import type { FieldError } from '#shared/domain/errors';
import type { Principal } from '#shared/domain/roles';
import type { TaskShape, TaskStatus } from '#shared/domain/task-state';

export type TaskPriority = 'low' | 'normal' | 'high';
export const TASK_PRIORITIES: readonly TaskPriority[] = ['high', 'normal', 'low'];

export interface TaskError {
  code: 'malformed_input' | 'agent_timeout' | 'integration_revoked' | 'agent_error' | string;
  message: string;
  details?: unknown[];
}

export interface ArtifactSummary {
  artifact_id: string;
  type: string;
  created_at: string;
  /** The agent-context call that emitted it; replays find already-emitted artifacts by it. */
  step: number;
  /** The tenant settings version the artifact's expiry was stamped from at write time. */
  retention_version?: number;
}

/**
 * Where a task came from: the API (an API key), the dashboard (a signed-in person), or a trigger
 * (with the trigger and its run, and what the trigger type adds: the source task and artifact of
 * an event trigger, the scheduled time of a schedule).
 */
export type TaskSource =
  | { type: 'api' }
  | { type: 'dashboard'; user_id: string }
  | ({ type: 'schedule' | 'event' | 'mail' | 'chat'; trigger_id: string; run_id: string } & Record<string, unknown>);

/** The source of a task a caller creates directly: a person is the dashboard, a key the API. */
export function directSource(principal: Pick<Principal, 'type' | 'id'>): TaskSource {
  return principal.type === 'user' ? { type: 'dashboard', user_id: principal.id } : { type: 'api' };
}

/** A task as stored. `step` counts the agent-context calls already applied (see agent-runner). */
export interface Task {
  task_id: string;
  tenant_id: string;
  shape: TaskShape;
  agent: string;
  agent_id: string;
  task_type: string;
  input: Record<string, unknown>;
  /**
   * Numbers of the input the table cannot keep as sent (stored as null instead): the task was
   * accepted, and its run fails with `malformed_input` naming them (shared/services/task-creation.ts).
   */
  input_violations?: FieldError[];
  status: TaskStatus;
  priority: TaskPriority;
  session_id?: string;
  /** Absent on tasks created before tasks recorded it: those all came from the API. */
  trigger?: TaskSource;
  created_at: string;
  updated_at: string;
  started_at?: string;
  /** When the task last went back to running after an approval; its deadline counts from here. */
  resumed_at?: string;
  /** The stuck-work sweeper's last re-dispatch of a task whose dispatch or worker was lost, and how many so far. */
  redispatched_at?: string;
  redispatch_count?: number;
  completed_at?: string;
  error?: TaskError;
  step: number;
  artifacts: Record<string, ArtifactSummary>;
  /** Bytes of the data of the artifacts a worker emitted and the task still lists (shared/domain/artifact.ts bounds it). */
  artifact_bytes?: number;
  /** Human decisions by the step that asked for them; a replay returns them from that call. */
  decisions?: Record<string, ApprovalDecision>;
  /** `worker`: a custom agent's task, claimed by its workers (docs/workers.md); absent: the built-in runtime runs it. */
  runs_on?: 'worker';
  /**
   * The worker's current lease (a worker's task while running). Kept once the task ends: a
   * heartbeat under the lease of a task cancelled meanwhile answers `cancel_requested`.
   */
  lease_id?: string;
  lease_expires_at?: string;
  /** The lease length the claim asked for; heartbeats extend by it unless they name another. */
  lease_seconds?: number;
  /** How many times workers claimed the task (the claim's `attempt`). */
  claim_count?: number;
  /** Leases that ran out without a heartbeat; the third fails the task with `agent_timeout`. */
  lost_leases?: number;
}

/** The task as clients see it. */
export function renderTask(task: Task) {
  const artifacts = Object.values(task.artifacts)
    .sort((a, b) => a.artifact_id.localeCompare(b.artifact_id))
    .map(({ artifact_id, type, created_at }) => ({ artifact_id, type, created_at }));
  return {
    task_id: task.task_id,
    agent: task.agent,
    agent_id: task.agent_id,
    task_type: task.task_type,
    input: task.input,
    status: task.status,
    priority: task.priority,
    ...(task.session_id ? { session_id: task.session_id } : {}),
    trigger: task.trigger ?? { type: 'api' },
    artifacts,
    created_at: task.created_at,
    ...(task.started_at ? { started_at: task.started_at } : {}),
    completed_at: task.completed_at ?? null,
    ...(task.error ? { error: task.error } : {}),
    tenant_id: task.tenant_id,
  };
}

export type TaskView = ReturnType<typeof renderTask>;
