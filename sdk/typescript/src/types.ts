/** The worker protocol's bodies as they travel on the wire (snake_case, as the server sends them). */

export type JsonObject = { [key: string]: unknown };

export type TaskStatus = 'queued' | 'pending' | 'running' | 'awaiting_approval' | 'complete' | 'failed' | 'cancelled';

export interface ErrorBody {
  code: string;
  message: string;
}

/** An artifact as the task lists it: in emission order, without its data. */
export interface ArtifactRef {
  artifact_id: string;
  type: string;
  created_at: string;
}

export interface Task {
  task_id: string;
  agent: string;
  agent_id?: string;
  task_type: string;
  input: JsonObject;
  status: TaskStatus;
  priority: 'high' | 'normal' | 'low';
  artifacts: ArtifactRef[];
  created_at: string;
  started_at?: string;
  completed_at?: string | null;
  error?: ErrorBody;
  /** Where the task came from: `{type: 'api'}`, `{type: 'dashboard', ...}`, a trigger run. */
  trigger: { type: string } & JsonObject;
  tenant_id: string;
  session_id?: string;
}

/** What an approval asks to do. Gatehouse tools (`mail.send`, ...) are carried out by Gatehouse when approved. */
export type Action = { type: string } & JsonObject;

export interface ApprovalRequest {
  title: string;
  description: string;
  action: Action;
}

/** A person's answer to an approval the task requested. */
export interface Decision {
  approval_id: string;
  decision: 'approved' | 'denied';
  /** The action as approved: the reviewer may have edited it (its `type` stays). */
  action: Action;
  comment?: string;
  /** `expired` when nobody decided in time (the approval then counts as denied). */
  resolution: 'resolved' | 'expired';
  /** Present when Gatehouse carried out an approved action of one of its own tools. */
  execution?: { status: 'executed' | 'failed'; result?: JsonObject; error?: ErrorBody };
}

/** `POST /agents/{agent}/claims` 200. */
export interface Claim {
  task: Task;
  lease_id: string;
  lease_expires_at: string;
  /** 1 on the first claim of the task, one more with every later claim. */
  attempt: number;
  /** One per approval the task requested, in the order they were requested. */
  decisions: Decision[];
}

export interface HeartbeatAnswer {
  lease_expires_at: string;
  cancel_requested: boolean;
}

export interface Artifact extends ArtifactRef {
  task_id: string;
  data: JsonObject;
}

export interface Approval {
  approval_id: string;
  task_id: string;
  /** `pending` when just requested. */
  status: 'pending' | 'approved' | 'denied';
  title: string;
  description: string;
  action: Action;
  expires_at: string;
  created_at: string;
}

export interface ToolCall {
  tool_call_id: string;
  tool: string;
  integration_id: string | null;
  outcome: 'succeeded' | 'failed';
  duration_ms: number;
  result?: JsonObject;
  error?: ErrorBody;
}

/** RFC 9457 problem details; `code` is the machine-readable reason. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}
