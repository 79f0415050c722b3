import { AgentFailure, type Agent, type AgentContext, type ApprovalDecision, type ApprovalRequest, type SessionView } from '#shared/agents/agent';
import type { Artifact } from '#shared/domain/artifact';
import type { Clock } from '#shared/domain/clock';
import { taskEvent } from '#shared/domain/events';
import { newId } from '#shared/domain/ids';
import { validateAgainstSchema } from '#shared/domain/input-validation';
import type { ApprovalGate, BufferedProgress, RetentionStamps, SessionViews, StepOutcome, TaskExecutionStore } from '#shared/domain/ports';
import { artifactExpiry, type RetentionStamp } from '#shared/domain/retention';
import type { Task, TaskError } from '#shared/domain/task';
import type { ToolProxy } from '#shared/domain/tool-proxy';
import type { ToolCallRecord } from '#shared/domain/tools';
import { recordedToolCall } from '#shared/domain/tool-call-record';

/**
 * Progress waiting for the next durable write is written on its own once the run's last write is
 * this old, so a watcher of a long step still sees progress about once a second.
 */
const PROGRESS_INTERVAL_MS = 1_000;

/**
 * Runs one task to its end, idempotently.
 *
 * Agents are deterministic, so the runner can replay a run from the start at any time: it numbers
 * the agent's context calls and the store applies call N only if exactly N-1 were applied before
 * (a conditional write on the task's `step`). On a redelivered message, calls already applied are
 * skipped and return what they returned the first time; the run continues where the dead worker
 * stopped, without duplicate artifacts or events. A cancelled task makes the next write fail its
 * condition, and the run stops there.
 *
 * The same replay resumes a task that paused for a human decision: the decision is recorded
 * against the step that asked for it, and the replay returns it from that call.
 */
export type RunOutcome = 'complete' | 'failed' | 'stopped' | 'skipped' | 'paused';

export interface AgentRunnerDependencies {
  store: TaskExecutionStore;
  approvals: ApprovalGate;
  findAgent: (slug: string) => Agent | undefined;
  clock: Clock;
  /** Stamps each artifact with its expiry from the tenant's retention (docs/retention.md). */
  retention: RetentionStamps;
  /** What a task of a session sees of it; without it, tasks see no session. */
  sessions?: SessionViews;
  /** The tool proxy (a Lambda invoke); without it, tool calls fail `tools_unavailable`. */
  tools?: Pick<ToolProxy, 'callTool'>;
}

/** Raised inside a run when the task left `running` (cancelled); unwinds the agent. */
class TaskStopped extends Error {}

/** Raised inside a run when the task parked on a human decision; unwinds the agent until resumed. */
class TaskParked extends Error {}

export class AgentRunner {
  constructor(private readonly deps: AgentRunnerDependencies) {}

  async run(tenantId: string, taskId: string): Promise<RunOutcome> {
    const { store } = this.deps;
    let task = await store.load(tenantId, taskId);
    // A custom agent's task is its workers' (docs/workers.md); a stray message must not run it here.
    if (!task || task.runs_on === 'worker') return 'skipped';
    if (task.status === 'cancelled') {
      // The canceller may have died before discarding partial artifacts; finish its job.
      await store.discardArtifacts(task);
      return 'skipped';
    }
    if (task.status === 'queued' || task.status === 'pending') {
      task = await store.start(task, taskEvent('task.started', task, {}, this.deps.clock));
      if (!task) return this.run(tenantId, taskId);
    }
    if (task.status !== 'running') return 'skipped';
    return this.execute(task);
  }

  private async execute(task: Task): Promise<RunOutcome> {
    const agent = this.deps.findAgent(task.agent);
    const taskType = agent?.manifest.task_types.find((candidate) => candidate.task_type === task.task_type);
    const handler = agent?.handlers[task.task_type];
    if (!agent || !taskType || !handler) {
      return this.fail(task, { code: 'agent_error', message: `Agent '${task.agent}' has no task type '${task.task_type}'.` });
    }
    // Numbers the table could not keep are null in the stored input: name them, not what the schema makes of the nulls.
    const violations = task.input_violations?.length ? task.input_violations : validateAgainstSchema(taskType.input_schema, task.input);
    if (violations.length > 0) {
      return this.fail(task, { code: 'malformed_input', message: `The input does not match the ${task.task_type} input schema.`, details: violations });
    }
    const session = task.session_id ? await this.deps.sessions?.viewFor(task) : undefined;
    const context = new ReplayingContext(task, this.deps, session);
    try {
      await handler(structuredClone(task.input), context);
    } catch (error) {
      if (error instanceof TaskStopped) return this.stopped(task);
      if (error instanceof TaskParked) {
        await this.settle(task, context);
        return 'paused';
      }
      // The database or queue failed: let the message be redelivered.
      if (!(error instanceof AgentFailure) && context.storeFailed) throw error;
      const failure: TaskError =
        error instanceof AgentFailure
          ? { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) }
          : { code: 'agent_error', message: error instanceof Error ? error.message : String(error) };
      if (!(await this.flush(context))) return this.stopped(task);
      await this.settle(task, context);
      return this.fail(task, failure, context.stamped.map((stamp) => stamp.artifact_id));
    }
    if (!(await this.flush(context))) return this.stopped(task);
    await this.settle(task, context);
    const emitted = context.stamped.map((stamp) => stamp.artifact_id);
    const outcome = await this.deps.store.complete(task, taskEvent('task.complete', task, { artifact_count: context.artifactCount }, this.deps.clock), emitted);
    return outcome === 'task_not_running' ? this.stopped(task) : 'complete';
  }

  /** Writes progress still buffered before the run ends; false when the task was stopped meanwhile. */
  private async flush(context: ReplayingContext): Promise<boolean> {
    try {
      await context.flushProgress();
      return true;
    } catch (error) {
      if (error instanceof TaskStopped) return false;
      throw error;
    }
  }

  /** Before the run ends: artifacts stamped from an outdated retention get the current one. */
  private async settle(task: Task, context: ReplayingContext): Promise<void> {
    if (context.stamped.length > 0) await this.deps.retention.settle(task.tenant_id, context.stamped);
  }

  private async fail(task: Task, error: TaskError, emitted: readonly string[] = []): Promise<RunOutcome> {
    const outcome = await this.deps.store.fail(task, error, taskEvent('task.failed', task, { error }, this.deps.clock), emitted);
    return outcome === 'task_not_running' ? this.stopped(task) : 'failed';
  }

  private async stopped(task: Task): Promise<RunOutcome> {
    const current = await this.deps.store.load(task.tenant_id, task.task_id);
    if (current?.status === 'cancelled') await this.deps.store.discardArtifacts(current);
    return 'stopped';
  }
}

/** What the agent gets from a recorded tool call: its result, or its failure as the task's error. */
function outcomeOf(record: ToolCallRecord): Record<string, unknown> {
  if (record.outcome === 'failed') throw new AgentFailure(record.error?.code ?? 'tool_call_failed', record.error?.message ?? `${record.tool} failed.`);
  return structuredClone(record.result ?? {});
}

/** The AgentContext of one run: numbers calls, skips those already applied, stops when told. */
class ReplayingContext implements AgentContext {
  private step = 0;
  artifactCount = 0;
  storeFailed = false;
  /** The latest progress call not written yet, and how many calls it stands for (see `progress`). */
  private pending: { step: number; message: string; progress: number; calls: number } | undefined;
  /** When this run last wrote: progress is flushed on its own once that is PROGRESS_INTERVAL_MS ago. */
  private lastWriteAt: number;
  /** Every artifact of the task this run emitted or replayed, with the settings version of its stamp. */
  readonly stamped: { artifact_id: string; retention_version?: number }[] = [];
  /** The tenant's retention, read once per run on the first new artifact. */
  private stamp: Promise<RetentionStamp> | undefined;
  /** The latest approval-gated artifact of this run: the one an approval request is about. */
  private gatedArtifactId: string | undefined;

  constructor(
    private readonly task: Task,
    private readonly deps: AgentRunnerDependencies,
    readonly session?: SessionView,
  ) {
    this.lastWriteAt = deps.clock.now().getTime();
  }

  get taskId() {
    return this.task.task_id;
  }

  get tenantId() {
    return this.task.tenant_id;
  }

  /**
   * Progress is a gauge, not a log: it is not written on its own but rides along with the next
   * durable write (an artifact, an approval request, the end of the run), and calls superseded
   * before that write are coalesced into the latest one, whose event alone is written. A run whose
   * last write is PROGRESS_INTERVAL_MS old writes it at once, so a slow step still reports about
   * once a second. Each call still takes its step number, and the write that carries it advances
   * `step` past every call it covers, so a replay skips exactly the calls written; a worker that
   * dies with progress buffered wrote nothing of it, and the replay buffers it again.
   */
  async progress(message: string, progress: number): Promise<void> {
    const step = ++this.step;
    if (step <= this.task.step) return;
    this.pending = { step, message, progress: Math.min(1, Math.max(0, progress)), calls: (this.pending?.calls ?? 0) + 1 };
    if (this.deps.clock.now().getTime() - this.lastWriteAt >= PROGRESS_INTERVAL_MS) await this.flushProgress();
  }

  /** Writes the buffered progress (its step and event) on its own. */
  async flushProgress(): Promise<void> {
    if (!this.pending) return;
    const last = this.pending.step;
    const progress = this.takeProgress()!;
    await this.apply(() => this.deps.store.recordProgress(this.task, last, progress));
  }

  /**
   * The buffered progress with its event, minted now (not when the agent called): an event's id is
   * its write time, which the SSE stream's settle window relies on (docs/agent-runtime.md).
   */
  private takeProgress(): BufferedProgress | undefined {
    if (!this.pending) return undefined;
    const { message, progress, calls } = this.pending;
    this.pending = undefined;
    return { event: taskEvent('task.progress', this.task, { message, progress }, this.deps.clock), calls };
  }

  async emitArtifact(type: string, data: Record<string, unknown>, options?: { approvalGated?: boolean }): Promise<{ artifact_id: string }> {
    const step = ++this.step;
    this.artifactCount++;
    const earlier = Object.values(this.task.artifacts).find((summary) => summary.step === step);
    if (earlier) {
      this.stamped.push({ artifact_id: earlier.artifact_id, retention_version: earlier.retention_version });
      if (options?.approvalGated) this.gatedArtifactId = earlier.artifact_id;
      return { artifact_id: earlier.artifact_id };
    }
    const retention = await this.retention();
    const progress = this.takeProgress();
    const now = this.deps.clock.now();
    const created: Artifact = {
      artifact_id: newId('art', now.getTime()),
      tenant_id: this.task.tenant_id,
      task_id: this.task.task_id,
      agent: this.task.agent,
      type,
      created_at: now.toISOString(),
      data,
      ...(options?.approvalGated ? { approval_status: 'pending' as const } : {}),
    };
    const artifact: Artifact = { ...created, expires_at: artifactExpiry(created, retention.retention_days), retention_version: retention.version };
    const event = taskEvent('artifact.emitted', this.task, { artifact_id: artifact.artifact_id, type }, this.deps.clock);
    const outcome = await this.apply(() => this.deps.store.emitArtifact(this.task, step, artifact, event, progress));
    if (outcome === 'already_applied') {
      // Another delivery of the same message applied this step concurrently; use its artifact.
      const current = await this.deps.store.load(this.task.tenant_id, this.task.task_id);
      const theirs = Object.values(current?.artifacts ?? {}).find((summary) => summary.step === step);
      if (theirs) {
        this.stamped.push({ artifact_id: theirs.artifact_id, retention_version: theirs.retention_version });
        if (options?.approvalGated) this.gatedArtifactId = theirs.artifact_id;
        return { artifact_id: theirs.artifact_id };
      }
    }
    this.stamped.push({ artifact_id: artifact.artifact_id, retention_version: artifact.retention_version });
    if (options?.approvalGated) this.gatedArtifactId = artifact.artifact_id;
    return { artifact_id: artifact.artifact_id };
  }

  private async retention(): Promise<RetentionStamp> {
    this.stamp ??= this.deps.retention.current(this.task.tenant_id);
    try {
      return await this.stamp;
    } catch (error) {
      this.stamp = undefined;
      this.storeFailed = true;
      throw error;
    }
  }

  async requestApproval(request: ApprovalRequest): Promise<ApprovalDecision> {
    const step = ++this.step;
    if (step <= this.task.step) {
      // Replayed: the decision recorded against this call, or still waiting for one.
      const decision = this.task.decisions?.[String(step)];
      // The runtime, not the agent, ends a task whose approved action failed: the agent would take it as done.
      if (decision?.failure) throw new AgentFailure(decision.failure.code, decision.failure.message);
      if (decision) return decision;
      throw new TaskParked();
    }
    await this.flushProgress();
    const outcome = await this.apply(() => this.deps.approvals.pause(this.task, step, request, this.gatedArtifactId));
    void outcome;
    throw new TaskParked();
  }

  async callTool(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const step = ++this.step;
    if (step <= this.task.step) return outcomeOf(await this.recordedToolCall(step));
    if (!this.deps.tools) throw new AgentFailure('tools_unavailable', 'This runtime has no tool proxy.');
    let answer;
    try {
      answer = await this.deps.tools.callTool({ action: 'call_tool', tenant_id: this.task.tenant_id, task_id: this.task.task_id, agent: this.task.agent, tool, args });
    } catch (error) {
      // The proxy itself failed (not the provider): let the message be redelivered.
      this.storeFailed = true;
      throw error;
    }
    const { record, event } = recordedToolCall(this.task, step, tool, answer, this.deps.clock);
    const outcome = await this.apply(() => this.deps.store.recordToolCall(this.task, step, record, event, this.takeProgress()));
    // Another delivery recorded this call first: its record is the one replays will see.
    return outcomeOf(outcome === 'already_applied' ? await this.recordedToolCall(step) : record);
  }

  private async recordedToolCall(step: number): Promise<ToolCallRecord> {
    const record = await this.deps.store.toolCall(this.task, step);
    if (!record) throw new AgentFailure('agent_error', `The agent's call ${step} is not the tool call recorded for it: the agent is not deterministic.`);
    return record;
  }

  private async apply(write: () => Promise<StepOutcome>): Promise<StepOutcome> {
    let outcome: StepOutcome;
    try {
      outcome = await write();
    } catch (error) {
      this.storeFailed = true;
      throw error;
    }
    this.lastWriteAt = this.deps.clock.now().getTime();
    if (outcome === 'task_not_running') throw new TaskStopped();
    return outcome;
  }
}
