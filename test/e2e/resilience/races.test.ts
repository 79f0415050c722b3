import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type ApiResponse, type TestRuntime } from '../../support/local-runtime';

/**
 * Races over real HTTP: each round sends the racing requests at once (Promise.all) and checks that
 * exactly one wins, the loser gets 409 problem+json, and the task, its events and its artifacts
 * agree with the winner. Rounds vary the moment the race starts so different interleavings occur.
 */
type Call = ReturnType<typeof apiClient>;

const TERMINAL = ['complete', 'failed', 'cancelled'];
const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop for every agent action.' },
  tone: 'concise',
};

function expectConflict(response: ApiResponse): void {
  expect(response.status).toBe(409);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  expect(response.body).toMatchObject({ status: 409, code: expect.any(String) });
}

async function eventsOf(call: Call, taskId: string): Promise<{ event_id: string; type: string; data: Record<string, unknown> }[]> {
  const { status, body } = await call('GET', `/events?task_id=${taskId}&limit=100`);
  expect(status).toBe(200);
  const ids = body.events.map((event: { event_id: string }) => event.event_id);
  expect(new Set(ids).size).toBe(ids.length);
  return body.events;
}

const count = (events: { type: string }[], type: string) => events.filter((event) => event.type === type).length;

/** The task once it stopped changing: terminal, or parked. */
async function settled(call: Call, taskId: string) {
  return eventually(async () => {
    const { body } = await call('GET', `/tasks/${taskId}`);
    return TERMINAL.includes(body.status) ? body : undefined;
  }, 30_000);
}

describe('races over HTTP: one winner, one consistent state, 409 for the loser', () => {
  // One runtime per test process: runtimes in one process share the handlers' environment.
  let runtime: TestRuntime;
  let api: Call;

  beforeAll(async () => {
    runtime = await startTestRuntime('races');
    api = apiClient(runtime.baseUrl, runtime.keys.a);
    await api('POST', '/agents/deploy', { agent_slug: 'ai-readiness', name: 'AI' });
    await api('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  /** A draft_email task parked on its approval: it stays cancellable until someone decides. */
  async function parkedDraft(body: Record<string, unknown>) {
    const { body: task } = await api('POST', '/tasks', { task_type: 'sales.draft_email', input: draftInput, ...body });
    const parked = await eventually(async () => {
      const { body: current } = await api('GET', `/tasks/${task.task_id}`);
      return ['queued', 'pending', 'running'].includes(current.status) ? undefined : current;
    }, 60_000);
    expect(parked, JSON.stringify(parked)).toMatchObject({ status: 'awaiting_approval' });
    return task.task_id as string;
  }

  it('cancel against a completing worker: either cancelled with nothing left, or complete with a 409 for the cancel', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 16; round++) {
      const { body: task } = await api('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'full' } });
      // Different rounds cancel at different points of the run: before it starts, mid-run, after it ends.
      await new Promise((resolve) => setTimeout(resolve, (round % 8) * 15));

      const cancel = await api('DELETE', `/tasks/${task.task_id}`);

      const final = await settled(api, task.task_id);
      const events = await eventsOf(api, task.task_id);
      const { body: artifacts } = await api('GET', `/tasks/${task.task_id}/artifacts`);
      if (cancel.status === 200) {
        expect(cancel.body).toMatchObject({ cancelled: true, task_id: task.task_id, status: 'cancelled' });
        expect(final.status).toBe('cancelled');
        expect(count(events, 'task.cancelled')).toBe(1);
        expect(count(events, 'task.complete') + count(events, 'task.failed')).toBe(0);
        // Partial artifacts are discarded (the worker or the canceller finishes that job).
        await eventually(async () => ((await api('GET', `/tasks/${task.task_id}/artifacts`)).body.artifacts.length === 0 ? true : undefined), 15_000);
      } else {
        expectConflict(cancel);
        expect(final.status).toBe('complete');
        expect(count(events, 'task.complete')).toBe(1);
        expect(count(events, 'task.cancelled')).toBe(0);
        expect(artifacts.artifacts.map((artifact: { type: string }) => artifact.type).sort()).toEqual(['ai_readiness.audit_report', 'ai_readiness.gap_summary']);
        expect(count(events, 'artifact.emitted')).toBe(2);
      }
      outcomes.push(final.status);
    }
    expect(outcomes).toHaveLength(16);
  }, 180_000);

  it('two resolutions of one approval: one decides, the other gets 409, the task ends as the winner decided', async () => {
    for (let round = 0; round < 4; round++) {
      const taskId = await parkedDraft({ agent: 'sales' });
      const task = { task_id: taskId };
      const { body: listing } = await api('GET', `/approvals?task_id=${task.task_id}`);
      const approvalId = listing.approvals[0].approval_id;
      const decisions = round % 2 === 0 ? (['approved', 'denied'] as const) : (['approved', 'approved'] as const);

      const responses = await Promise.all(decisions.map((decision) => api('POST', `/approvals/${approvalId}/resolve`, { decision })));

      const winners = responses.filter((response) => response.status === 200);
      const losers = responses.filter((response) => response.status !== 200);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expectConflict(losers[0]);
      const decided = winners[0].body.decision ?? winners[0].body.status;
      const { body: approval } = await api('GET', `/approvals/${approvalId}`);
      expect(approval.status).toBe(decided);
      await settled(api, task.task_id);
      const events = await eventsOf(api, task.task_id);
      expect(count(events, 'approval.resolved')).toBe(1);
      expect(count(events, 'tool_call.executed')).toBe(decided === 'approved' ? 1 : 0);
      expect(count(events, 'task.complete') + count(events, 'task.failed')).toBe(1);
      const { body: artifacts } = await api('GET', `/tasks/${task.task_id}/artifacts`);
      expect(artifacts.artifacts.find((artifact: { type: string }) => artifact.type === 'sales.email_draft')).toMatchObject({ approval_status: decided });
    }
  }, 180_000);

  it.each([
    ['DELETE /tasks/{id}', 'agent', (id: string) => ['DELETE', `/tasks/${id}`] as const],
    ['POST /tasks/{id}/cancel', 'agent_id', (id: string) => ['POST', `/tasks/${id}/cancel`] as const],
  ])('two concurrent cancels through %s: one 200, one 409, one task.cancelled', async (_, shape, request) => {
    const { body: agents } = await api('GET', '/agents');
    const agentId = agents.agents.find((agent: { agent_slug: string }) => agent.agent_slug === 'sales').agent_id;
    for (let round = 0; round < 6; round++) {
      const taskId = await parkedDraft(shape === 'agent' ? { agent: 'sales' } : { agent_id: agentId });
      const [method, path] = request(taskId);

      const responses = await Promise.all([api(method, path), api(method, path)]);

      const winners = responses.filter((response) => response.status === 200);
      expect(winners).toHaveLength(1);
      expectConflict(responses.find((response) => response.status !== 200)!);
      if (shape === 'agent') expect(winners[0].body).toMatchObject({ cancelled: true, status: 'cancelled' });
      else expect(winners[0].body).toMatchObject({ task_id: taskId, status: 'cancelled' });
      const { body: final } = await api('GET', `/tasks/${taskId}`);
      expect(final.status).toBe('cancelled');
      const events = await eventsOf(api, taskId);
      expect(count(events, 'task.cancelled')).toBe(1);
      expect(count(events, 'task.complete') + count(events, 'task.failed')).toBe(0);
      // Partial artifacts (the parked draft) are discarded.
      expect((await api('GET', `/tasks/${taskId}/artifacts`)).body.artifacts).toEqual([]);
    }
  }, 180_000);
});
