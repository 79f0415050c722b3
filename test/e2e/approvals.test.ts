import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, eventually, startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;

const draftInput = {
  lead: { name: 'Ada Example', email: 'ada@prospect.example', company: 'Prospect Ltd' },
  product: { name: 'Gatehouse', value_proposition: 'Keeps a human in the loop for every agent action.' },
  tone: 'concise',
};

/** Starts a draft_email task and waits until it is parked on its approval. */
async function parkedDraft(call = a) {
  const { body: task } = await call('POST', '/tasks', { agent: 'sales', task_type: 'sales.draft_email', input: draftInput });
  await eventually(async () => ((await call('GET', `/tasks/${task.task_id}`)).body.status === 'awaiting_approval' ? true : undefined));
  const { body } = await call('GET', `/approvals?task_id=${task.task_id}`);
  expect(body.approvals).toHaveLength(1);
  return { taskId: task.task_id as string, approval: body.approvals[0] };
}

async function finished(taskId: string) {
  return eventually(async () => {
    const { body } = await a('GET', `/tasks/${taskId}`);
    return ['complete', 'failed'].includes(body.status) ? body : undefined;
  });
}

async function outboxMail(approvalId: string) {
  const file = join(process.env.GATEHOUSE_OUTBOX_DIR!, `${approvalId}.eml`);
  return simpleParser(await readFile(file));
}

describe('approvals end to end over HTTP', () => {
  beforeAll(async () => {
    runtime = await startTestRuntime('approvals');
    a = apiClient(runtime.baseUrl, runtime.keys.a);
    b = apiClient(runtime.baseUrl, runtime.keys.b);
    await a('POST', '/agents/deploy', { agent_slug: 'sales', name: 'Sales' });
  });

  afterAll(async () => {
    await runtime?.stop();
  });

  it('parks a draft_email task on a mail.send approval with a pending draft artifact', async () => {
    const { taskId, approval } = await parkedDraft();

    expect(approval).toMatchObject({ task_id: taskId, agent: 'sales', status: 'pending', action: { type: 'mail.send', to: 'ada@prospect.example' } });
    expect(Date.parse(approval.expires_at) - Date.parse(approval.created_at)).toBe(24 * 3600_000);
    const { body: artifacts } = await a('GET', `/tasks/${taskId}/artifacts`);
    expect(artifacts.artifacts[0]).toMatchObject({ type: 'sales.email_draft', approval_status: 'pending', data: { to: approval.action.to, subject: approval.action.subject, body: approval.action.body } });
    const events = (await a('GET', `/events?task_id=${taskId}&type=approval.requested`)).body.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ approval_id: approval.approval_id, data: { approval_id: approval.approval_id, action: { type: 'mail.send' } } });
  });

  it('approved: the service sends the mail, records tool_call.executed, marks the draft approved and the task completes', async () => {
    const { taskId, approval } = await parkedDraft();

    const resolved = await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved', comment: 'Looks good' });

    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ approval_id: approval.approval_id, decision: 'approved', resolved_at: expect.any(String) });
    const task = await finished(taskId);
    expect(task.status).toBe('complete');
    const mail = await outboxMail(approval.approval_id);
    expect(mail.to).toMatchObject({ text: 'ada@prospect.example' });
    expect(mail.subject).toBe(approval.action.subject);
    expect(mail.text?.trim()).toBe(approval.action.body.trim());
    const types = (await a('GET', `/events?task_id=${taskId}`)).body.events.map((event: { type: string }) => event.type);
    expect(types).toEqual(expect.arrayContaining(['approval.requested', 'approval.resolved', 'tool_call.executed', 'task.complete']));
    expect(types.indexOf('tool_call.executed')).toBeLessThan(types.indexOf('task.complete'));
    expect((await a('GET', `/tasks/${taskId}/artifacts`)).body.artifacts[0].approval_status).toBe('approved');
    const read = (await a('GET', `/approvals/${approval.approval_id}`)).body;
    expect(read).toMatchObject({ status: 'approved', decision: 'approved', comment: 'Looks good', execution: { status: 'executed' } });
    expect((await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'denied' })).status).toBe(409);
  });

  it('approved with modified_action: the edited email is sent and the original kept', async () => {
    const { taskId, approval } = await parkedDraft();
    const edited = { ...approval.action, body: 'A shorter, edited body.' };

    expect((await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved', modified_action: { ...edited, type: 'mail.delete' } })).status).toBe(400);
    expect((await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved', modified_action: { ...edited, to: 'not an address' } })).status).toBe(400);
    const resolved = await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved', modified_action: edited });

    expect(resolved.status).toBe(200);
    await finished(taskId);
    expect((await outboxMail(approval.approval_id)).text?.trim()).toBe('A shorter, edited body.');
    const read = (await a('GET', `/approvals/${approval.approval_id}`)).body;
    expect(read.action.body).toBe('A shorter, edited body.');
    expect(read.original_action).toEqual(approval.action);
  });

  it('denied: nothing is sent, the draft is denied, the comment kept, and the task completes as the agent decides', async () => {
    const { taskId, approval } = await parkedDraft();

    const resolved = await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'denied', comment: 'Wrong prospect' });

    expect(resolved.body).toMatchObject({ decision: 'denied' });
    const task = await finished(taskId);
    expect(task.status).toBe('complete');
    expect((await a('GET', `/tasks/${taskId}/artifacts`)).body.artifacts[0].approval_status).toBe('denied');
    expect((await readdir(process.env.GATEHOUSE_OUTBOX_DIR!).catch((): string[] => [])).includes(`${approval.approval_id}.eml`)).toBe(false);
    expect((await a('GET', `/approvals/${approval.approval_id}`)).body).toMatchObject({ status: 'denied', comment: 'Wrong prospect', resolution: 'resolved' });
    expect((await a('GET', '/approvals?status=denied')).body.approvals.map((x: { approval_id: string }) => x.approval_id)).toContain(approval.approval_id);
  });

  it('lets exactly one of two concurrent resolutions win; the other gets 409', async () => {
    const { taskId, approval } = await parkedDraft();

    const responses = await Promise.all([
      a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved' }),
      a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'denied' }),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(responses.find((response) => response.status === 409)!.body.code).toBe('approval_already_resolved');
    await finished(taskId);
  });

  it('expires: past expires_at it reads as denied, the schedule denies it, and a late resolution is 409', async () => {
    await a('PATCH', '/agents/sales/config', { approval_ttl_hours: 0.001 });
    const { taskId, approval } = await parkedDraft();
    await a('PATCH', '/agents/sales/config', { approval_ttl_hours: 24 });
    expect(Date.parse(approval.expires_at) - Date.parse(approval.created_at)).toBe(3600);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(approval.expires_at) - Date.now()) + 50));
    const read = (await a('GET', `/approvals/${approval.approval_id}`)).body;

    expect(read).toMatchObject({ status: 'denied', decision: 'denied', resolution: 'expired' });
    expect((await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved' })).status).toBe(409);
    const task = await finished(taskId);
    expect(task.status).toBe('complete');
    expect((await a('GET', `/tasks/${taskId}/artifacts`)).body.artifacts[0].approval_status).toBe('expired');
    const resolvedEvents = (await a('GET', `/events?task_id=${taskId}&type=approval.resolved`)).body.events;
    expect(resolvedEvents).toHaveLength(1);
    expect(resolvedEvents[0].data).toMatchObject({ decision: 'denied', resolution: 'expired' });
  });

  it('keeps approvals to their tenant and validates input', async () => {
    const { approval } = await parkedDraft();

    expect((await b('GET', `/approvals/${approval.approval_id}`)).status).toBe(404);
    expect((await b('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'approved' })).status).toBe(404);
    expect((await b('GET', '/approvals')).body.approvals).toEqual([]);
    expect((await a('POST', `/approvals/${approval.approval_id}/resolve`, { decision: 'maybe' })).status).toBe(400);
    expect((await a('GET', '/approvals?status=expired')).status).toBe(400);
    expect((await a('GET', '/approvals/apr_unknown')).status).toBe(404);
    expect((await a('GET', `/approvals/${approval.approval_id}`)).body.status).toBe('pending');
  });
});
