import type { CallOptions, GatehouseClient } from './client.ts';
import { isLeaseLost, TaskAborted, TaskFailure, TaskSuspended, ToolCallError, type AbortReason } from './errors.ts';
import type { Lease } from './lease.ts';
import { truncate } from './truncate.ts';
import type { ApprovalRequest, ArtifactRef, Claim, Decision, JsonObject, Task } from './types.ts';

/** Everything a handler may do with its task. */
export interface TaskContext {
  readonly taskId: string;
  /** The task as claimed, with the artifacts earlier runs emitted. */
  readonly task: Task;
  readonly input: JsonObject;
  /** 1 on the first run of the task; more after an approval or a lost lease (the run then replays). */
  readonly attempt: number;
  /** The decisions on the approvals this task requested, in the order requested. */
  readonly decisions: readonly Decision[];
  /** Aborts with `'cancelled'`, `'lease_lost'` or `'shutdown'`: stop then, whatever you were doing. */
  readonly signal: AbortSignal;
  /** Reports progress (`fraction` from 0 to 1); the latest value goes out with the next heartbeat. */
  progress(message: string, fraction: number): Promise<void>;
  /** Stores an immutable artifact; in a replay, returns the one this call stored before. */
  emitArtifact(type: string, data: JsonObject): Promise<ArtifactRef>;
  /**
   * Asks a person. The first time, it posts the approval and rejects with TaskSuspended (let it
   * propagate): the task waits, and runs again from the start once decided. In that replay, the
   * n-th call returns the n-th decision.
   */
  requestApproval(request: ApprovalRequest): Promise<Decision>;
  /** Runs a read tool (`github.read_file`, ...); a provider failure throws ToolCallError with its code. */
  callTool(tool: string, args: JsonObject): Promise<JsonObject>;
}

/** What the context needs of the run it belongs to. */
export interface RunHandle {
  readonly claim: Claim;
  readonly client: GatehouseClient;
  readonly lease: Lease;
  readonly signal: AbortSignal;
  readonly nextKey: () => string;
  /** A call was answered 409 `lease_lost`. */
  leaseLost(): void;
  /** The approval is posted, and the lease ended with it. */
  suspend(approvalId: string): void;
  readonly suspendedOn: string | undefined;
}

const PROGRESS_MESSAGE_MAX = 500;

/**
 * The handler's context. Approvals and artifacts are numbered per run so that a replay returns
 * what the earlier runs got (the task's decisions and artifacts, by position) without posting.
 */
export function createTaskContext(run: RunHandle): TaskContext {
  const { claim, client, lease, signal } = run;
  const taskId = claim.task.task_id;
  const leaseId = claim.lease_id;
  let approvalCalls = 0;
  let artifactCalls = 0;

  const ensureActive = () => {
    if (signal.aborted) throw new TaskAborted(signal.reason as AbortReason);
    if (run.suspendedOn) throw new TaskSuspended(run.suspendedOn);
  };

  async function send<T>(call: (options: CallOptions) => Promise<T>): Promise<T> {
    ensureActive();
    try {
      return await call({ idempotencyKey: run.nextKey(), signal });
    } catch (error) {
      if (isLeaseLost(error)) run.leaseLost();
      if (signal.aborted) throw new TaskAborted(signal.reason as AbortReason);
      throw error;
    }
  }

  return {
    taskId,
    task: claim.task,
    input: claim.task.input,
    attempt: claim.attempt,
    decisions: claim.decisions,
    signal,

    async progress(message, fraction) {
      ensureActive();
      if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`progress fraction must be from 0 to 1, got ${fraction}`);
      lease.setProgress(truncate(message, PROGRESS_MESSAGE_MAX), fraction);
    },

    async emitArtifact(type, data) {
      ensureActive();
      const earlier = claim.task.artifacts[artifactCalls++];
      if (earlier) {
        expectSameCall('emitArtifact', artifactCalls, earlier.type, type);
        return { artifact_id: earlier.artifact_id, type: earlier.type, created_at: earlier.created_at };
      }
      const artifact = await send((options) => client.emitArtifact(taskId, { lease_id: leaseId, type, data }, options));
      return { artifact_id: artifact.artifact_id, type: artifact.type, created_at: artifact.created_at };
    },

    async requestApproval(request) {
      ensureActive();
      const earlier = claim.decisions[approvalCalls++];
      if (earlier) {
        expectSameCall('requestApproval', approvalCalls, earlier.action.type, request.action.type);
        return earlier;
      }
      const approval = await send((options) => lease.endWith(() => client.requestApproval(taskId, { lease_id: leaseId, ...request }, options)));
      run.suspend(approval.approval_id);
      throw new TaskSuspended(approval.approval_id);
    },

    async callTool(tool, args) {
      const call = await send((options) => client.callTool(taskId, { lease_id: leaseId, tool, args }, options));
      if (call.outcome === 'failed') throw new ToolCallError(tool, call.tool_call_id, call.error ?? { code: 'tool_failed', message: 'the tool call failed' });
      return call.result ?? {};
    },
  };
}

/** A replay that does not repeat the earlier run's calls cannot be resumed: the task fails, saying where. */
function expectSameCall(method: string, number: number, recorded: string, requested: string): void {
  if (recorded === requested) return;
  throw new TaskFailure('replay_mismatch', `${method} call ${number} asked for '${requested}', but the earlier run's call ${number} was '${recorded}'; a handler must repeat its calls in the same order.`);
}
