import type { CheckReport } from './check-invoice.ts';

/** A `mail.send` action: Gatehouse sends it once a person approves (and may edit) it. */
export interface MailAction {
  type: 'mail.send';
  to: string;
  subject: string;
  body: string;
  [key: string]: unknown;
}

const VERDICT_LINES: Record<CheckReport['verdict'], string> = {
  pass: 'We found nothing to query; it goes to payment.',
  review: 'We will look at the points below before paying it.',
  reject: 'We cannot pay it as it is; please send a corrected invoice.',
};

/** `no findings`, `1 finding`, `3 findings`. */
export function findingsPhrase(count: number): string {
  return count === 0 ? 'no findings' : `${count} finding${count === 1 ? '' : 's'}`;
}

/** The mail that tells the supplier what the check found; the same report always gives the same mail. */
export function supplierMail(to: string, report: CheckReport): MailAction {
  const count = report.findings.length;
  const subject = count === 0 ? `Invoice ${report.invoice_number}: checked, no findings` : `Invoice ${report.invoice_number}: ${findingsPhrase(count)}`;
  const lines = [
    'Hello,',
    '',
    `we checked your invoice ${report.invoice_number} (${report.amount}${report.currency ? ` ${report.currency}` : ''}). ${VERDICT_LINES[report.verdict]}`,
    ...(count > 0 ? ['', ...report.findings.map((finding) => `- ${finding.severity}: ${finding.message}`)] : []),
    '',
    'Accounts payable',
  ];
  // The subject must stay one line: the invoice number comes from the task's input.
  return { type: 'mail.send', to, subject: subject.replace(/[\r\n]+/g, ' '), body: lines.join('\n') };
}
