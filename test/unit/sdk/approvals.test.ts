import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { TaskFailure, TaskSuspended, type Decision, type TaskHandler } from '../../../sdk/typescript/src/index.ts';
import { useFakeGatehouse } from './harness.ts';

const gatehouse = useFakeGatehouse();

const action = { type: 'mail.send', to: 'ap@example.com', subject: 'Invoice 42', body: 'The report.' };

/** The handler of the brief's example; it records what each run saw. */
function invoiceCheck(runs: { attempt: number; suspended?: unknown; decision?: Decision; artifacts: string[] }[]): TaskHandler {
  return async (_input, ctx) => {
    const run: (typeof runs)[number] = { attempt: ctx.attempt, artifacts: [] };
    runs.push(run);
    await ctx.progress('Checking', 0.2);
    run.artifacts.push((await ctx.emitArtifact('invoice.report', { total: 42 })).artifact_id);
    run.decision = await ctx.requestApproval({ title: 'Send the report', description: 'To accounts payable.', action }).catch((error: unknown) => {
      run.suspended = error;
      throw error;
    });
    if (run.decision.decision === 'denied') throw new TaskFailure('denied', 'The report was not sent.');
    run.artifacts.push((await ctx.emitArtifact('invoice.sent', { via: 'mail' })).artifact_id);
  };
}

describe('approvals', () => {
  it('posts the approval and unwinds the handler with TaskSuspended, without completing or heartbeating', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const runs: Parameters<typeof invoiceCheck>[0] = [];

    await gatehouse.startWorker({ 'invoice.check': invoiceCheck(runs) });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('awaiting_approval'));
    await vi.waitFor(() => expect(runs[0]?.suspended).toBeInstanceOf(TaskSuspended));
    const [approval] = gatehouse.fake.sent('approvals', taskId);
    expect(approval.body).toEqual({ lease_id: expect.any(String), title: 'Send the report', description: 'To accounts payable.', action });
    await sleep(200);
    const sent = gatehouse.fake.sent(undefined, taskId);
    expect(sent.filter((request) => request.at > approval.at)).toEqual([]);
    expect(sent.map((request) => request.route)).not.toContain('complete');
  });

  it('replays a re-claimed task: the earlier artifact and the approval are not posted again, and the run goes on to complete', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    const runs: Parameters<typeof invoiceCheck>[0] = [];
    await gatehouse.startWorker({ 'invoice.check': invoiceCheck(runs) });
    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('awaiting_approval'));
    const execution = { status: 'executed' as const, result: { message_id: 'msg_1' } };

    gatehouse.fake.decide(taskId, 'approved', { comment: 'Fine.', execution });

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('complete'));
    expect(gatehouse.fake.sent('approvals', taskId)).toHaveLength(1);
    expect(gatehouse.fake.sent('artifacts', taskId).map((request) => request.body.type)).toEqual(['invoice.report', 'invoice.sent']);
    expect(runs.map((run) => run.attempt)).toEqual([1, 2]);
    expect(runs[1].artifacts[0]).toBe(runs[0].artifacts[0]);
    expect(runs[1].decision).toEqual({ approval_id: expect.stringMatching(/^apr_/), decision: 'approved', action, comment: 'Fine.', resolution: 'resolved', execution });
    expect(gatehouse.fake.task(taskId).artifacts.map((artifact) => artifact.type)).toEqual(['invoice.report', 'invoice.sent']);
  });

  it('fails the task when the handler throws on a denial it replays', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    await gatehouse.startWorker({ 'invoice.check': invoiceCheck([]) });
    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('awaiting_approval'));

    gatehouse.fake.decide(taskId, 'denied');

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('failed'));
    expect(gatehouse.fake.task(taskId).error).toEqual({ code: 'denied', message: 'The report was not sent.' });
  });

  it('fails with replay_mismatch when a replay asks for another artifact type than the earlier run did', async () => {
    const taskId = gatehouse.fake.enqueue('invoice.check');
    let runs = 0;
    await gatehouse.startWorker({
      'invoice.check': async (_input, ctx) => {
        await ctx.emitArtifact(++runs === 1 ? 'invoice.report' : 'invoice.summary', {});
        await ctx.requestApproval({ title: 'Send', description: '', action });
      },
    });
    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('awaiting_approval'));

    gatehouse.fake.decide(taskId, 'approved');

    await vi.waitFor(() => expect(gatehouse.fake.task(taskId).status).toBe('failed'));
    expect(gatehouse.fake.task(taskId).error?.code).toBe('replay_mismatch');
  });
});
