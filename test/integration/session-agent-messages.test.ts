import { beforeAll, describe, expect, it } from 'vitest';
import { sessionRepository } from '#shared/adapters/dynamodb/session-repository';
import { taskRepository } from '#shared/adapters/dynamodb/task-repository';
import { findAgentBySlug } from '#shared/agents/catalog';
import { systemClock } from '#shared/domain/clock';
import { AgentRunner } from '#shared/runtime/agent-runner';
import { deployAgent } from '#shared/services/agents';
import { approvalGate } from '#shared/services/approval-gate';
import { retentionStamps } from '#shared/services/retention-stamps';
import { createSession } from '#shared/services/session-creation';
import { sessionViews } from '#shared/services/session-views';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { storedTask } from '../support/task-fixtures';

const runner = new AgentRunner({ store: taskRepository, approvals: approvalGate, findAgent: findAgentBySlug, clock: systemClock, retention: retentionStamps, sessions: sessionViews });

describe("the agent's message when a task of a session ends", () => {
  beforeAll(async () => {
    await provisionForTest('session-messages');
  });

  it('is written with the ending, naming every artifact of the run, and the next task of the session sees it', async () => {
    const tenant = uniqueTenant();
    await deployAgent(tenant, { agent_slug: 'ai-readiness' });
    const session = await createSession(tenant, { agent: 'ai-readiness', metadata: {}, idle_timeout_minutes: 60 });
    const task = await storedTask(tenant, { session_id: session.session_id, trigger: { type: 'api' } });

    await expect(runner.run(tenant, task.task_id)).resolves.toBe('complete');

    const done = (await taskRepository.load(tenant, task.task_id))!;
    const { messages } = await sessionRepository.listMessages(tenant, session.session_id, 10);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ role: 'agent', task_id: task.task_id, outcome: 'complete', artifact_ids: Object.keys(done.artifacts).sort() });
    expect(messages[0].created_at).toBe(done.completed_at);

    const next = await storedTask(tenant, { session_id: session.session_id, trigger: { type: 'api' } });
    const view = (await sessionViews.viewFor(next))!;
    expect(view.messages.map((message) => message.task_id)).toEqual([task.task_id]);
    expect(view.artifacts.map((artifact) => artifact.artifact_id).sort()).toEqual(Object.keys(done.artifacts).sort());
  });

  it('is not written for a task older than sessions, whose session_id was only a label', async () => {
    const tenant = uniqueTenant();
    await deployAgent(tenant, { agent_slug: 'ai-readiness' });
    const session = await createSession(tenant, { agent: 'ai-readiness', metadata: {}, idle_timeout_minutes: 60 });
    // Stored as tasks were before `trigger` existed.
    const legacy = await storedTask(tenant, { session_id: session.session_id });

    await expect(runner.run(tenant, legacy.task_id)).resolves.toBe('complete');

    expect((await sessionRepository.listMessages(tenant, session.session_id, 10)).messages).toEqual([]);
  });
});
