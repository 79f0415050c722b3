import type { ToolCallRecord } from '#shared/domain/tools';
import type { ApprovalRequest, SessionView } from '#shared/agents/agent';
import type { Artifact } from '#shared/domain/artifact';
import type { ServiceEvent } from '#shared/domain/event';
import type { RetentionStamp } from '#shared/domain/retention';
import type { Task, TaskError } from '#shared/domain/task';

/** What happened to one agent-context call when the runtime tried to apply it. */
export type StepOutcome = 'applied' | 'already_applied' | 'task_not_running';

/** A worker's write holds only while the task is running under this lease. */
export interface HeldLease {
  leaseId: string;
}

/**
 * Consecutive progress calls not written yet, coalesced: progress is a gauge, so only the latest
 * call's event is written, and the write applies every call it covers (docs/agent-runtime.md).
 */
export interface BufferedProgress {
  /** The `task.progress` event of the latest call. */
  event: ServiceEvent;
  /** How many calls it covers (≥ 1). */
  calls: number;
}

/**
 * The storage a task run needs. Every method is one conditional write that also records its
 * event, so a crash between calls leaves a consistent task that a replay can continue.
 */
export interface TaskExecutionStore {
  load(tenantId: string, taskId: string): Promise<Task | undefined>;
  /** Waiting → running. Returns the running task, or undefined if it is no longer waiting. */
  start(task: Task, event: ServiceEvent): Promise<Task | undefined>;
  /** Applies the progress calls ending at `step` (calls `step - progress.calls + 1`..`step`) with their one event. */
  recordProgress(task: Task, step: number, progress: BufferedProgress): Promise<StepOutcome>;
  /** Applies call `step` (the artifact) with the progress calls buffered just before it. */
  emitArtifact(task: Task, step: number, artifact: Artifact, event: ServiceEvent, progress?: BufferedProgress): Promise<StepOutcome>;
  /**
   * Ends the task at the event's time: completed_at, the event and the usage counted agree.
   * `emitted`: the artifacts of the run, which a task of a session names in the agent's message.
   */
  complete(task: Task, event: ServiceEvent, emitted?: readonly string[]): Promise<StepOutcome>;
  fail(task: Task, error: TaskError, event: ServiceEvent, emitted?: readonly string[]): Promise<StepOutcome>;
  /** Applies call `step` (a tool call) with its record and `tool_call.executed`. */
  recordToolCall(task: Task, step: number, record: ToolCallRecord, event: ServiceEvent, progress?: BufferedProgress): Promise<StepOutcome>;
  /** The recorded tool call `step`, for a replay. */
  toolCall(task: Task, step: number): Promise<ToolCallRecord | undefined>;
  /** Deletes the artifacts of a cancelled task (spec: partial artifacts are discarded). */
  discardArtifacts(task: Task): Promise<void>;
}

/** Hands a task to the workers. */
export interface TaskDispatcher {
  dispatch(task: Pick<Task, 'tenant_id' | 'task_id' | 'priority'>): Promise<void>;
}

/** Parks a task on a human decision (agent-context call `step`). */
export interface ApprovalGate {
  /** Creates the approval (and its expiry), parks the task and records `approval.requested`. */
  /** With `lease`, the task parks only while that worker's lease is still its own (docs/workers.md). */
  pause(task: Task, step: number, request: ApprovalRequest, gatedArtifactId: string | undefined, lease?: HeldLease): Promise<StepOutcome>;
}

/**
 * The tenant's retention as a task run sees it: read once per run (on its first artifact), and
 * settled at the end, when artifacts stamped from a settings version that changed meanwhile get
 * the current expiry (a re-stamp job may already have passed them).
 */
export interface RetentionStamps {
  current(tenantId: string): Promise<RetentionStamp>;
  settle(tenantId: string, artifacts: { artifact_id: string; retention_version?: number }[]): Promise<void>;
}

/** What a task of a session sees of it (shared/services/session-views.ts). */
export interface SessionViews {
  viewFor(task: Task): Promise<SessionView | undefined>;
}
