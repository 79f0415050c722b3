import { TaskFailure, type Decision, type TaskContext } from '@gatehouse/worker';
import { checkInvoice, nothingToCheck, type CheckReport, type InvoiceInput } from './check-invoice.ts';
import { findingsPhrase, supplierMail } from './supplier-mail.ts';

/**
 * `invoice.check`: reports the findings (`invoice.check_report`) and, when the input names the
 * supplier's address, asks a person before mailing them (`invoice.mail_draft` says what happened).
 * After the decision the SDK runs this again from the start, replaying the report and the approval,
 * so every call below depends only on the input and the decision.
 */
export async function handleInvoiceCheck(input: InvoiceInput, ctx: TaskContext): Promise<void> {
  await ctx.progress(`Checking invoice ${input.invoice_number}`, 0.1);
  const empty = nothingToCheck(input);
  if (empty) throw new TaskFailure('nothing_to_check', empty);

  const report = checkInvoice(input);
  await ctx.emitArtifact('invoice.check_report', { ...report });
  if (!input.supplier_email) {
    await ctx.progress(`Checked: ${report.verdict}`, 1);
    return;
  }

  const findings = findingsPhrase(report.findings.length);
  await ctx.progress(`Asking to mail ${findings} to the supplier`, 0.6);
  const decision = await ctx.requestApproval({
    title: `Mail the check of invoice ${report.invoice_number} to the supplier`,
    description: `Verdict: ${report.verdict}. The mail tells ${input.supplier_email} of ${findings}.`,
    action: supplierMail(input.supplier_email, report),
  });
  const draft = mailDraft(report, decision);
  await ctx.emitArtifact('invoice.mail_draft', draft);
  // Approved but not delivered: the check is done, yet somebody must see that the supplier was not told.
  if (decision.decision === 'approved' && !draft.sent) {
    throw new TaskFailure('mail_not_sent', `The approved mail to ${draft.to} was not sent: ${decision.execution?.error?.message ?? 'Gatehouse reported no outcome'}.`);
  }
  await ctx.progress(draft.sent ? 'Mailed the supplier' : 'Not mailed: the mail was denied', 1);
}

/** The `invoice.mail_draft` artifact: the mail as the person decided it (they may have edited it), and whether it went out. */
function mailDraft(report: CheckReport, decision: Decision) {
  const { to, subject, body } = decision.action as { to?: unknown; subject?: unknown; body?: unknown };
  return {
    invoice_number: report.invoice_number,
    to: String(to),
    subject: String(subject),
    body: String(body),
    decision: decision.decision,
    resolution: decision.resolution,
    ...(decision.comment ? { comment: decision.comment } : {}),
    sent: decision.decision === 'approved' && decision.execution?.status === 'executed',
  };
}
