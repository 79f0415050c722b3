/**
 * The contract between the agent runtime and an agent module.
 *
 * An agent is a deterministic program: the same input gives the same calls on its context in the
 * same order. The runtime relies on that to make redelivered work idempotent: it replays the run
 * and skips every context call that was already applied, and it resumes a run that paused for a
 * human decision by replaying it up to the recorded decision.
 */

/** A JSON Schema document (draft 2020-12 subset that Ajv understands). */
export type JsonSchema = Record<string, unknown>;

export interface TaskTypeManifest {
  /** `<domain>.<action>`, e.g. `ai_readiness.full_audit`. */
  task_type: string;
  description: string;
  /** JSON Schema of the task's `input`; the runtime validates input against it before `run`. */
  input_schema: JsonSchema;
  /** Artifact types this task type may emit. */
  artifact_types: string[];
}

export interface AgentManifest {
  /** Canonical slug, e.g. `ai-readiness-agent`. */
  slug: string;
  /** Other slugs that resolve to this agent, e.g. `ai-readiness`. */
  aliases: string[];
  name: string;
  description: string;
  version: string;
  task_types: TaskTypeManifest[];
}

/** An action that touches the outside world and therefore needs a human decision first. */
export interface ApprovalRequest {
  title: string;
  description: string;
  action: { type: string } & Record<string, unknown>;
}

export interface ApprovalDecision {
  decision: 'approved' | 'denied';
  /** The action that was (or would have been) executed: the modified one when a human edited it. */
  action: { type: string } & Record<string, unknown>;
  comment?: string;
  /** `expired` when nobody decided before the approval's `expires_at`. */
  resolution?: 'resolved' | 'expired';
  /** The approved action could not be executed (revoked credentials, a provider down): the task fails with it. */
  failure?: { code: string; message: string };
  /** The approval this decides (a worker's claim hands decisions back by it). */
  approval_id?: string;
  /** What the service's execution of an approved tool action gave (a worker's claim shows it). */
  execution?: { status: 'executed' | 'failed'; result?: Record<string, unknown>; error?: { code: string; message: string } };
}

/**
 * What a task of a session sees of it: the messages and the artifacts of its earlier tasks, as
 * they were when this task was created (so a replay sees the same), oldest first.
 */
export interface SessionView {
  readonly sessionId: string;
  readonly messages: readonly { role: 'user' | 'agent'; content: string; created_at: string; task_id?: string }[];
  readonly artifacts: readonly { artifact_id: string; type: string; task_id: string; created_at: string; data: Record<string, unknown> }[];
}

/** Everything an agent may do. Agents never see tenants' credentials, tables or queues. */
export interface AgentContext {
  readonly taskId: string;
  readonly tenantId: string;
  /** The session the task runs in; undefined for a task outside a session. */
  readonly session?: SessionView;
  /** Records a `task.progress` event; `progress` is a fraction from 0 to 1. */
  progress(message: string, progress: number): Promise<void>;
  /** Stores an immutable artifact and records `artifact.emitted`. */
  emitArtifact(
    type: string,
    data: Record<string, unknown>,
    options?: { approvalGated?: boolean },
  ): Promise<{ artifact_id: string }>;
  /**
   * Pauses the task until a human decides. On the first run this never returns (the runtime
   * parks the task as `awaiting_approval`); when the run is replayed after the decision it
   * returns the decision.
   */
  requestApproval(request: ApprovalRequest): Promise<ApprovalDecision>;
  /**
   * Calls a read tool (`github.read_file`, ...) through the tool proxy with the agent's bound
   * integration; the result is recorded, so a replay gets the same without calling again. A call
   * that fails throws an AgentFailure with its code (`integration_revoked`, `integration_not_bound`,
   * `provider_unavailable`, ...), which ends the task unless the agent catches it.
   */
  callTool(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** Thrown by an agent to end its task as `failed` with a machine-readable code. */
export class AgentFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
    this.name = 'AgentFailure';
  }
}

export type TaskHandler = (input: any, context: AgentContext) => Promise<void>;

export interface Agent {
  manifest: AgentManifest;
  /** One handler per task type named in the manifest. */
  handlers: Record<string, TaskHandler>;
}
