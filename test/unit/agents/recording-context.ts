import { AgentFailure, type AgentContext, type ApprovalDecision, type ApprovalRequest } from '#shared/agents/agent';

export interface RecordedArtifact {
  type: string;
  data: Record<string, unknown>;
  options?: { approvalGated?: boolean };
}

/**
 * Stands in for the agent runtime: records what an agent reports, emits nothing anywhere.
 * Artifacts are deep-copied through JSON, as the runtime stores them.
 */
export class RecordingContext implements AgentContext {
  readonly progressCalls: { message: string; progress: number }[] = [];
  readonly artifacts: RecordedArtifact[] = [];
  readonly approvals: ApprovalRequest[] = [];

  constructor(
    readonly taskId = 'task_test',
    readonly tenantId = 'tenant_test',
  ) {}

  async progress(message: string, progress: number): Promise<void> {
    this.progressCalls.push({ message, progress });
  }

  async emitArtifact(
    type: string,
    data: Record<string, unknown>,
    options?: { approvalGated?: boolean },
  ): Promise<{ artifact_id: string }> {
    this.artifacts.push({ type, data: JSON.parse(JSON.stringify(data)), ...(options ? { options } : {}) });
    return { artifact_id: `artifact_${this.artifacts.length}` };
  }

  /** The human's answer to approval requests; when unset, asking for approval fails the test. */
  decide?: (request: ApprovalRequest) => ApprovalDecision;

  async requestApproval(request: ApprovalRequest): Promise<ApprovalDecision> {
    this.approvals.push(request);
    if (!this.decide) throw new Error('No approval decision configured: set `decide` on the RecordingContext.');
    return this.decide(JSON.parse(JSON.stringify(request)));
  }

  readonly toolCalls: { tool: string; args: Record<string, unknown> }[] = [];

  /** Runs a tool call (e.g. the real tool runner against a loopback provider); when unset, calls fail `integration_not_bound`. */
  tools?: (tool: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

  async callTool(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.toolCalls.push({ tool, args: JSON.parse(JSON.stringify(args)) });
    if (!this.tools) throw new AgentFailure('integration_not_bound', `No ${tool.split('.')[0]} integration in this test.`);
    return JSON.parse(JSON.stringify(await this.tools(tool, args)));
  }

  /** The data of the single artifact of `type`; fails the test when there is not exactly one. */
  artifact<T = Record<string, unknown>>(type: string): T {
    const found = this.artifacts.filter((a) => a.type === type);
    if (found.length !== 1) throw new Error(`expected one ${type} artifact, got ${found.length}`);
    return found[0].data as T;
  }
}
