import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, taskEnded, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;

const ended = (taskId: string) => taskEnded(a, taskId);

/** The transcript once it holds `count` messages (an agent's message lands with its task's ending). */
async function transcript(sessionId: string, count: number) {
  return eventually(async () => {
    const { body } = await a('GET', `/sessions/${sessionId}/messages`);
    return body.messages.length >= count ? body.messages : undefined;
  }, 30_000);
}

describe('sessions end to end', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('sessions');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'ai-readiness' });
    await a('POST', '/agents/deploy', { agent_slug: 'sales' });
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('opens a session with a deployed agent, and refuses agents it cannot run', async () => {
    const created = await a('POST', '/sessions', { agent: 'ai-readiness', title: 'Vendor questionnaire', metadata: { ticket: 'SEC-1' }, idle_timeout_minutes: 30 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ agent: 'ai-readiness-agent', status: 'open', title: 'Vendor questionnaire', metadata: { ticket: 'SEC-1' }, idle_timeout_minutes: 30, task_count: 0, closed_at: null, close_reason: null });
    expect(created.body.session_id).toMatch(/^ses_/);
    expect(created.body.last_activity_at).toBe(created.body.created_at);
    expect((await a('GET', `/sessions/${created.body.session_id}`)).body).toEqual(created.body);
    expect((await a('POST', '/sessions', { agent: 'ai-readiness' })).body.idle_timeout_minutes).toBe(1440);

    const notDeployed = await b('POST', '/sessions', { agent: 'sales' });
    expect(notDeployed.status).toBe(400);
    expect(notDeployed.body).toMatchObject({ code: 'agent_not_deployed', errors: [{ path: 'body.agent' }] });
    expect((await a('POST', '/sessions', { agent: 'nobody' })).body.code).toBe('unknown_agent');
    for (const bad of [{ agent: 'sales', idle_timeout_minutes: 0 }, { agent: 'sales', idle_timeout_minutes: 50_000 }, { agent: 'sales', metadata: { n: 1 } }, { agent: 'sales', surprise: true }]) {
      const answer = await a('POST', '/sessions', bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.code).toBe('validation_error');
    }
    // Another tenant's session does not exist for this one.
    expect((await b('GET', `/sessions/${created.body.session_id}`)).status).toBe(404);
    expect((await b('GET', `/sessions/${created.body.session_id}`)).body.code).toBe('session_not_found');
  });

  it('runs tasks in a session: each sees what came before, and the agent reports how it ended', async () => {
    const session = (await a('POST', '/sessions', { agent: 'ai-readiness', title: 'Audit then questionnaire' })).body.session_id;
    const note = await a('POST', `/sessions/${session}/messages`, { content: 'We need to answer ACME by Friday.' });
    expect(note.status).toBe(201);
    expect(note.body).toMatchObject({ session_id: session, role: 'user', content: 'We need to answer ACME by Friday.' });
    expect(note.body.task_id).toBeUndefined();

    // An audit without logging evidence: its report lists that gap.
    const audit = await a('POST', `/sessions/${session}/messages`, { content: 'Audit us first.', task_type: 'ai_readiness.full_audit', input: { scope: 'full', evidence: ['ai_inventory'] } });
    expect(audit.status).toBe(201);
    expect(audit.body.task_id).toMatch(/^tsk_/);
    const auditTask = await ended(audit.body.task_id);
    expect(auditTask).toMatchObject({ status: 'complete', session_id: session, trigger: { type: 'api' } });
    const report = auditTask.artifacts.find((artifact: { type: string }) => artifact.type === 'ai_readiness.audit_report');

    const afterAudit = await transcript(session, 3);
    expect(afterAudit.map((message: { role: string }) => message.role)).toEqual(['user', 'user', 'agent']);
    expect(afterAudit[2]).toMatchObject({ role: 'agent', task_id: auditTask.task_id, outcome: 'complete' });
    expect([...afterAudit[2].artifact_ids].sort()).toEqual(auditTask.artifacts.map((artifact: { artifact_id: string }) => artifact.artifact_id).sort());
    expect(afterAudit[2].content).toContain(report.artifact_id);

    // The questionnaire, answered in the same session, draws on that report.
    const question = await a('POST', `/sessions/${session}/messages`, {
      content: 'Now the questionnaire.',
      task_type: 'questionnaire.respond',
      input: { questions: [{ id: 'q1', text: 'Do you keep logs of your AI system for traceability?' }] },
    });
    const questionTask = await ended(question.body.task_id);
    expect(questionTask.status).toBe('complete');
    const response = (await a('GET', `/artifacts/${questionTask.artifacts[0].artifact_id}`)).body.data;
    expect(response.audit_report_id).toBe(report.artifact_id);
    expect(response.answers[0]).toMatchObject({ question_id: 'q1', topic: 'logging', needs_review: true });
    expect(response.answers[0].answer).toContain(report.artifact_id);

    // The same questionnaire outside the session knows nothing of the audit.
    const alone = await ended((await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'questionnaire.respond', input: { questions: [{ id: 'q1', text: 'Do you keep logs of your AI system for traceability?' }] } })).body.task_id);
    const aloneResponse = (await a('GET', `/artifacts/${alone.artifacts[0].artifact_id}`)).body.data;
    expect(aloneResponse.audit_report_id).toBeUndefined();
    expect(aloneResponse.answers[0].answer).not.toContain(report.artifact_id);

    const listed = (await a('GET', `/tasks?session_id=${session}`)).body;
    expect(listed.tasks.map((task: { task_id: string }) => task.task_id)).toEqual([questionTask.task_id, auditTask.task_id]);
    expect((await a('GET', `/tasks?session_id=${session}&status=failed`)).body.tasks).toEqual([]);
    const paged = (await a('GET', `/tasks?session_id=${session}&limit=1`)).body;
    expect(paged.tasks.map((task: { task_id: string }) => task.task_id)).toEqual([questionTask.task_id]);
    expect((await a('GET', `/tasks?session_id=${session}&limit=1&cursor=${encodeURIComponent(paged.next_cursor)}`)).body.tasks[0].task_id).toBe(auditTask.task_id);
    expect((await b('GET', `/tasks?session_id=${session}`)).body.tasks).toEqual([]);

    const sessionNow = (await a('GET', `/sessions/${session}`)).body;
    expect(sessionNow.task_count).toBe(2);
    expect(sessionNow.last_activity_at >= questionTask.created_at).toBe(true);

    const final = await transcript(session, 5);
    const events = (await a('GET', '/events?type=session.message&limit=100')).body.events.filter((event: any) => event.data.session_id === session);
    expect(events.map((event: any) => event.data.message_id).sort()).toEqual(final.map((message: { message_id: string }) => message.message_id).sort());
    expect(events.find((event: any) => event.data.role === 'agent' && event.data.task_id === auditTask.task_id)).toBeDefined();
  });

  it('ties tasks to their session: unknown, foreign, closed and other-agent sessions are refused', async () => {
    const session = (await a('POST', '/sessions', { agent: 'sales' })).body.session_id;
    const leads = { agent: 'sales', task_type: 'sales.find_leads', input: { industries: ['fintech'], limit: 2 } };
    const created = await a('POST', '/tasks', { ...leads, session_id: session });
    expect(created.status).toBe(202);
    expect(created.body.session_id).toBe(session);

    const missing = await a('POST', '/tasks', { ...leads, session_id: 'ses_01jzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('session_not_found');
    await b('POST', '/agents/deploy', { agent_slug: 'sales' });
    expect((await b('POST', '/tasks', { ...leads, session_id: session })).body.code).toBe('session_not_found');

    const mismatch = await a('POST', '/tasks', { agent: 'ai-readiness', task_type: 'ai_readiness.full_audit', input: { scope: 'quick' }, session_id: session });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 'session_agent_mismatch', errors: [{ path: 'body.session_id' }] });
    const wrongType = await a('POST', `/sessions/${session}/messages`, { content: 'Audit?', task_type: 'ai_readiness.full_audit' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('unknown_task_type');
    expect((await a('POST', `/sessions/${session}/messages`, { content: 'x', input: { a: 1 } })).body).toMatchObject({ code: 'validation_error', errors: [{ path: 'body.input' }] });

    const closed = await a('POST', `/sessions/${session}/close`, { reason: 'done for today' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', close_reason: 'done for today' });
    expect(closed.body.closed_at).toBeTruthy();
    expect((await a('POST', `/sessions/${session}/close`)).status).toBe(409);
    const late = await a('POST', `/sessions/${session}/messages`, { content: 'one more thing' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('session_closed');
    const lateTask = await a('POST', '/tasks', { ...leads, session_id: session });
    expect(lateTask.status).toBe(409);
    expect(lateTask.body.code).toBe('session_closed');
    expect((await a('GET', `/tasks?session_id=${session}`)).body.tasks.map((task: { task_id: string }) => task.task_id)).toEqual([created.body.task_id]);

    // The task begun before the close still ends, and the agent still says so.
    await ended(created.body.task_id);
    const messages = await transcript(session, 1);
    expect(messages.at(-1)).toMatchObject({ role: 'agent', task_id: created.body.task_id, outcome: 'complete' });
    const closedEvents = (await a('GET', '/events?type=session.closed&limit=100')).body.events.filter((event: any) => event.data.session_id === session);
    expect(closedEvents.map((event: any) => event.data)).toEqual([{ session_id: session, reason: 'done for today' }]);

    expect((await a('GET', '/sessions?status=closed')).body.sessions.map((listed: { session_id: string }) => listed.session_id)).toContain(session);
    expect((await a('GET', '/sessions?status=open')).body.sessions.map((listed: { session_id: string }) => listed.session_id)).not.toContain(session);
    expect((await a('GET', '/sessions?agent=ai-readiness')).body.sessions.every((listed: { agent: string }) => listed.agent === 'ai-readiness-agent')).toBe(true);
  });

  it('says how a cancelled task of the session ended', async () => {
    const session = (await a('POST', '/sessions', { agent: 'sales' })).body.session_id;
    const agentId = (await a('GET', '/agents/sales')).body.agent_id;
    // An identifier-shaped task waits `pending` for a worker; a draft asks for approval, so it stops there at the latest.
    const draft = await a('POST', '/tasks', {
      agent_id: agentId,
      task_type: 'sales.draft_email',
      input: { lead: { name: 'Ada', email: 'ada@prospect.example', company: 'Prospect Ltd' }, product: { name: 'Gatehouse', value_proposition: 'Humans decide.' } },
      session_id: session,
    });
    expect(draft.status).toBe(201);
    expect((await a('POST', `/tasks/${draft.body.task_id}/cancel`)).status).toBe(200);
    const messages = await transcript(session, 1);
    expect(messages[0]).toMatchObject({ role: 'agent', task_id: draft.body.task_id, outcome: 'cancelled', artifact_ids: [] });
  });
});
