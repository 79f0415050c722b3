import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import type { TaskExecutionStore } from '#shared/domain/ports';
import type { ToolProxy } from '#shared/domain/tool-proxy';
import type { Agent } from '#shared/agents/agent';
import { approvalRepository } from '#shared/adapters/dynamodb/approval-repository';
import { resolveApproval } from '#shared/services/approvals';
import { executeToolCall } from '#shared/services/tool-calls';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { deployAgent, updateAgentConfig } from '#shared/services/agents';
import { approvalGate } from '#shared/services/approval-gate';
import { connectIntegration } from '#shared/services/integration-admin';
import { retentionStamps } from '#shared/services/retention-stamps';
import { callReadTool } from '#shared/services/tool-execution';
import { taskEvents } from '../support/event-reader';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { startGitHubApiServer } from '../support/providers/github-api-server';
import { storedTask } from '../support/task-fixtures';

const TOKEN = 'ghp_integrationTestToken';
let github: Awaited<ReturnType<typeof startGitHubApiServer>>;

/** The tool proxy's own code, in process, counting the calls that reach it. */
function countingProxy(): Pick<ToolProxy, 'callTool'> & { calls: number } {
  const proxy = {
    calls: 0,
    callTool: (request: Parameters<ToolProxy['callTool']>[0]) => {
      proxy.calls++;
      return callReadTool(request);
    },
  };
  return proxy;
}

/** A store whose step writes fail after `budget` of them: the worker dies mid-run. */
function dyingStore(budget: number): TaskExecutionStore {
  let left = budget;
  const spend = async <T>(write: () => Promise<T>): Promise<T> => {
    if (left-- <= 0) throw Object.assign(new Error('worker died'), { name: 'TimeoutError' });
    return write();
  };
  return {
    load: (tenantId, taskId) => taskRepository.load(tenantId, taskId),
    start: (task, event) => taskRepository.start(task, event),
    recordProgress: (task, step, progress) => spend(() => taskRepository.recordProgress(task, step, progress)),
    emitArtifact: (task, step, artifact, event, progress) => spend(() => taskRepository.emitArtifact(task, step, artifact, event, progress)),
    recordToolCall: (task, step, record, event, progress) => spend(() => taskRepository.recordToolCall(task, step, record, event, progress)),
    toolCall: (task, step) => taskRepository.toolCall(task, step),
    complete: (task, event, emitted) => spend(() => taskRepository.complete(task, event, emitted)),
    fail: (task, error, event, emitted) => taskRepository.fail(task, error, event, emitted),
    discardArtifacts: (task) => taskRepository.discardArtifacts(task),
  };
}

async function tenantWithRepository(): Promise<string> {
  const tenant = uniqueTenant();
  await deployAgent(tenant, { agent_slug: 'ai-readiness' });
  const integration = await connectIntegration(tenant, { kind: 'github', name: 'GitHub', credentials: { token: TOKEN }, settings: { api_url: github.url } });
  await updateAgentConfig(tenant, 'ai-readiness-agent', { integrations: { github: integration.integration_id } });
  return tenant;
}

describe('tool calls of a run on DynamoDB Local', () => {
  beforeAll(async () => {
    await provisionForTest('tool-calls');
    github = await startGitHubApiServer({
      tokens: { [TOKEN]: { login: 'octo', id: 7 } },
      repos: { 'acme/models': { default_branch: 'main', private: false, files: new Map([['README.md', '# Models'], ['MODEL_CARD.md', '# Model card\n\n## Intended use\n\nScoring.\n\n## Limitations\n\nNone known.\n']]) } },
    });
  });

  afterAll(async () => {
    await github.close();
  });

  it('records each call with its step, so a run replayed after its worker died calls the provider no more', async () => {
    const tenant = await tenantWithRepository();
    const task = await storedTask(tenant, { input: { scope: 'quick', repository: 'acme/models' } });
    const proxy = countingProxy();
    let deaths = 0;
    for (let budget = 0; budget < 20; budget++) {
      const outcome = await new AgentRunner({ store: dyingStore(budget), approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps, tools: proxy }).run(tenant, task.task_id).catch(() => 'died');
      if (outcome !== 'died') break;
      deaths++;
    }
    expect(deaths).toBeGreaterThan(2);
    const done = await taskRepository.load(tenant, task.task_id);
    expect(done?.status).toBe('complete');
    const recorded = (await taskEvents(tenant, task.task_id)).filter((event) => event.type === 'tool_call.executed');
    // One event per call however often the run was replayed; the proxy saw each call at most once per death before it was recorded.
    expect(recorded.map((event) => event.data.tool)).toEqual(['github.list_files', 'github.read_file', 'github.read_file']);
    expect(new Set(recorded.map((event) => event.data.tool_call_id)).size).toBe(3);
    expect(proxy.calls).toBeLessThanOrEqual(3 + deaths);
    expect(await taskRepository.toolCall(done!, 1)).toMatchObject({ tool: 'github.list_files', outcome: 'succeeded' });
  });

  it('retries a provider that fails transiently, and fails the call provider_unavailable when it keeps failing', async () => {
    const tenant = await tenantWithRepository();
    github.state.failNext(2, 502);
    const recovered = await callReadTool({ tenant_id: tenant, agent: 'ai-readiness-agent', tool: 'github.list_files', args: { repository: 'acme/models' } });
    expect(recovered).toMatchObject({ outcome: 'succeeded', result: { files: expect.any(Array) } });
    github.state.failNext(3, 503);
    const failed = await callReadTool({ tenant_id: tenant, agent: 'ai-readiness-agent', tool: 'github.list_files', args: { repository: 'acme/models' } });
    expect(failed).toMatchObject({ outcome: 'failed', error: { code: 'provider_unavailable' } });
    const integration = (await integrationRepository.listAll(tenant))[0];
    expect(integration.status).toBe('active');
  });

  it('runs an approved github.create_issue once however often the proxy gets it, and fails the task when the token is refused', async () => {
    const tenant = await tenantWithRepository();
    // An agent whose one step asks to open an issue (the kind of action an external worker asks for).
    const opener: Agent = {
      manifest: { ...findAgentBySlug('ai-readiness-agent')!.manifest },
      handlers: {
        'ai_readiness.full_audit': async (_input, context) => {
          const decision = await context.requestApproval({ title: 'Open an issue', description: 'A gap was found', action: { type: 'github.create_issue', repository: 'acme/models', title: 'Gap: no DPIA', body: 'Found by the audit.' } });
          await context.progress(decision.decision === 'approved' ? 'Issue opened' : 'Not opened', 1);
        },
      },
    };
    const run = (taskId: string) => new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: () => opener, clock: systemClock, retention: retentionStamps }).run(tenant, taskId);
    const approveAndExecute = async (taskId: string) => {
      expect(await run(taskId)).toBe('paused');
      const [approval] = (await approvalRepository.list(tenant, { status: 'pending', taskId, limit: 10 })).approvals;
      await resolveApproval(tenant, approval.approval_id, { decision: 'approved' }, { type: 'api_key', id: 'key_test' });
      await executeToolCall(tenant, approval.approval_id);
      await executeToolCall(tenant, approval.approval_id);
      return (await approvalRepository.get(tenant, approval.approval_id))!;
    };

    const first = await storedTask(tenant);
    const executed = await approveAndExecute(first.task_id);
    expect(executed.execution).toMatchObject({ status: 'executed', result: { number: expect.any(Number), url: expect.any(String) } });
    expect(github.state.issues.filter((issue) => issue.title === 'Gap: no DPIA')).toHaveLength(1);
    expect(await run(first.task_id)).toBe('complete');

    github.state.tokens.delete(TOKEN);
    const second = await storedTask(tenant);
    const refused = await approveAndExecute(second.task_id);
    expect(refused.execution).toMatchObject({ status: 'failed', error: { code: 'integration_revoked' } });
    expect(await run(second.task_id)).toBe('failed');
    expect((await taskRepository.load(tenant, second.task_id))?.error?.code).toBe('integration_revoked');
    expect((await integrationRepository.listAll(tenant))[0].status).toBe('revoked');
    github.state.tokens.set(TOKEN, { login: 'octo', id: 7 });
  });

  it('refuses tools that act, unknown tools, bad arguments and agents without the integration, without calling the provider', async () => {
    const tenant = await tenantWithRepository();
    const before = github.state.requests.length;
    const ask = (tool: string, args: Record<string, unknown>, agent = 'ai-readiness-agent') => callReadTool({ tenant_id: tenant, agent, tool, args });
    expect(await ask('github.create_issue', { repository: 'acme/models', title: 'x', body: 'y' })).toMatchObject({ outcome: 'failed', error: { code: 'tool_requires_approval' } });
    expect(await ask('shell.run', {})).toMatchObject({ error: { code: 'unknown_tool' } });
    expect(await ask('github.read_file', { repository: 'acme/models', path: '../../etc/passwd' })).toMatchObject({ error: { code: 'invalid_tool_arguments' } });
    expect(await ask('github.read_file', { repository: 'acme/models', path: 'README.md' }, 'sales')).toMatchObject({ error: { code: 'integration_not_bound' } });
    expect(github.state.requests.length).toBe(before);
  });
});
