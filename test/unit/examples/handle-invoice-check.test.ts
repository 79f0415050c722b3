import { describe, expect, it } from 'vitest';
import { TaskFailure, TaskSuspended, type ApprovalRequest, type Decision, type JsonObject, type Task, type TaskContext } from '@gatehouse/worker';
import { handleInvoiceCheck } from '../../../examples/invoice-checker/handle-invoice-check';
import type { InvoiceInput } from '../../../examples/invoice-checker/check-invoice';

/**
 * The example's handler with a context that behaves as the SDK's does on each run: the first
 * `requestApproval` rejects with TaskSuspended; a rerun gets the decisions. Over HTTP, the same
 * handler runs in test/e2e/worker-sdk.test.ts.
 */
function runContext(decisions: Decision[] = []) {
  const artifacts: { type: string; data: JsonObject }[] = [];
  const approvals: ApprovalRequest[] = [];
  const ctx: TaskContext = {
    taskId: 'tsk_1',
    task: {} as Task,
    input: {},
    attempt: decisions.length + 1,
    decisions,
    signal: new AbortController().signal,
    async progress() {},
    async emitArtifact(type, data) {
      artifacts.push({ type, data });
      return { artifact_id: `art_${artifacts.length}`, type, created_at: '2026-03-02T09:00:00.000Z' };
    },
    async requestApproval(request) {
      const decision = decisions[approvals.length];
      approvals.push(request);
      if (decision) return decision;
      throw new TaskSuspended('apr_1');
    },
    async callTool() {
      throw new Error('the invoice checker calls no tools');
    },
  };
  return { ctx, artifacts, approvals };
}

const mailed: InvoiceInput = { invoice_number: 'INV-1', amount: 120, currency: 'EUR', purchase_order: { number: 'PO-1', amount: 100 }, supplier_email: 'billing@supplier.example' };

const decided = (decision: Decision['decision'], extra: Partial<Decision> = {}): Decision => ({
  approval_id: 'apr_1',
  decision,
  action: { type: 'mail.send', to: 'billing@supplier.example', subject: 'Invoice INV-1: 1 finding', body: 'Hello' },
  resolution: 'resolved',
  ...extra,
});

describe('the invoice checker handler', () => {
  it('fails nothing_to_check for an invoice without amount or purchase order, before any artifact', async () => {
    const { ctx, artifacts } = runContext();

    const run = handleInvoiceCheck({ invoice_number: 'INV-0', amount: 0 }, ctx);

    await expect(run).rejects.toBeInstanceOf(TaskFailure);
    await expect(run).rejects.toMatchObject({ code: 'nothing_to_check' });
    expect(artifacts).toEqual([]);
  });

  it('reports and completes without asking anyone when there is no supplier address', async () => {
    const { ctx, artifacts, approvals } = runContext();

    await handleInvoiceCheck({ invoice_number: 'INV-2', amount: 10, currency: 'EUR' }, ctx);

    expect(artifacts.map((artifact) => artifact.type)).toEqual(['invoice.check_report']);
    expect(artifacts[0].data).toMatchObject({ verdict: 'review', findings: [{ code: 'missing_purchase_order' }] });
    expect(approvals).toEqual([]);
  });

  it('asks to mail the findings to the supplier after the report, and suspends there', async () => {
    const { ctx, artifacts, approvals } = runContext();

    await expect(handleInvoiceCheck(mailed, ctx)).rejects.toBeInstanceOf(TaskSuspended);

    expect(artifacts.map((artifact) => artifact.type)).toEqual(['invoice.check_report']);
    expect(approvals).toHaveLength(1);
    expect(approvals[0].action).toMatchObject({ type: 'mail.send', to: 'billing@supplier.example', subject: 'Invoice INV-1: 1 finding' });
    expect(approvals[0].action.body).toContain('exceeds purchase order PO-1 by 20.00');
  });

  it('records the mail as sent once Gatehouse executed the approved (edited) action', async () => {
    const edited = { type: 'mail.send', to: 'payables@supplier.example', subject: 'Invoice INV-1', body: 'Edited.' };
    const { ctx, artifacts } = runContext([decided('approved', { action: edited, comment: 'Shorter.', execution: { status: 'executed', result: { message_id: '<m@x>' } } })]);

    await handleInvoiceCheck(mailed, ctx);

    expect(artifacts[1]).toEqual({
      type: 'invoice.mail_draft',
      data: { invoice_number: 'INV-1', to: 'payables@supplier.example', subject: 'Invoice INV-1', body: 'Edited.', decision: 'approved', resolution: 'resolved', comment: 'Shorter.', sent: true },
    });
  });

  it('completes with sent: false when the mail is denied or the approval expired', async () => {
    for (const decision of [decided('denied'), decided('denied', { resolution: 'expired' })]) {
      const { ctx, artifacts } = runContext([decision]);

      await handleInvoiceCheck(mailed, ctx);

      expect(artifacts[1].data).toMatchObject({ decision: 'denied', resolution: decision.resolution, sent: false });
    }
  });

  it('fails mail_not_sent, after recording it, when the approved mail could not be sent', async () => {
    const { ctx, artifacts } = runContext([decided('approved', { execution: { status: 'failed', error: { code: 'provider_unavailable', message: 'SMTP refused' } } })]);

    await expect(handleInvoiceCheck(mailed, ctx)).rejects.toMatchObject({ code: 'mail_not_sent', message: expect.stringContaining('SMTP refused') });
    expect(artifacts[1].data).toMatchObject({ decision: 'approved', sent: false });
  });
});
