import type { AgentContext, ApprovalDecision, ApprovalRequest } from '#shared/agents/agent';

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

  /** The data of the single artifact of `type`; fails the test when there is not exactly one. */
  artifact<T = Record<string, unknown>>(type: string): T {
    const found = this.artifacts.filter((a) => a.type === type);
    if (found.length !== 1) throw new Error(`expected one ${type} artifact, got ${found.length}`);
    return found[0].data as T;
  }
}
