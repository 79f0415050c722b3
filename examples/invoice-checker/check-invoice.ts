/**
 * The invoice checker's rules: pure and deterministic, because the SDK replays a handler from the
 * start after an approval and the replay must reach the same findings and make the same calls.
 */

/** An `invoice.check` task's input, as manifest.json's schema lets it through. */
export interface InvoiceInput {
  invoice_number: string;
  amount: number;
  currency?: string;
  purchase_order?: { number: string; amount: number };
  supplier_email?: string;
}

export type Severity = 'info' | 'warning' | 'error';

export interface Finding {
  code: 'missing_purchase_order' | 'purchase_order_mismatch' | 'missing_currency' | 'currency_not_accepted' | 'zero_amount';
  severity: Severity;
  message: string;
}

/** `pass`: pay it; `review`: a person should look first; `reject`: do not pay it as it is. */
export type Verdict = 'pass' | 'review' | 'reject';

/** The `invoice.check_report` artifact. */
export interface CheckReport {
  invoice_number: string;
  amount: number;
  currency: string | null;
  purchase_order: string | null;
  verdict: Verdict;
  findings: Finding[];
}

/** The currencies accounts payable pays in. */
export const ACCEPTED_CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF'] as const;

/**
 * Why the invoice gives nothing to check (no amount, no purchase order), or undefined. Such a task
 * is a mistake upstream, so it fails rather than producing an empty report.
 */
export function nothingToCheck(input: InvoiceInput): string | undefined {
  if (input.amount === 0 && !input.purchase_order) return `Invoice ${input.invoice_number} has no amount and no purchase order: there is nothing to check it against.`;
  return undefined;
}

/** Checks the invoice's amount against its purchase order, and its currency; the findings by severity, worst first. */
export function checkInvoice(input: InvoiceInput): CheckReport {
  const findings = [...purchaseOrderFindings(input), ...currencyFindings(input.currency)];
  findings.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
  return {
    invoice_number: input.invoice_number,
    amount: input.amount,
    currency: input.currency ?? null,
    purchase_order: input.purchase_order?.number ?? null,
    verdict: verdictOf(findings),
    findings,
  };
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

function purchaseOrderFindings({ amount, purchase_order: order }: InvoiceInput): Finding[] {
  if (!order) return [{ code: 'missing_purchase_order', severity: 'warning', message: 'The invoice names no purchase order; someone must confirm it was ordered.' }];
  const findings: Finding[] = [];
  if (amount === 0) findings.push({ code: 'zero_amount', severity: 'info', message: `The invoice bills nothing against purchase order ${order.number}.` });
  // Compared in cents: 0.1 + 0.2 must not look like a mismatch.
  const difference = toCents(amount) - toCents(order.amount);
  if (difference > 0) {
    findings.push({ code: 'purchase_order_mismatch', severity: 'error', message: `The invoice exceeds purchase order ${order.number} by ${formatCents(difference)} (${amount} billed, ${order.amount} ordered).` });
  } else if (difference < 0 && amount > 0) {
    findings.push({ code: 'purchase_order_mismatch', severity: 'warning', message: `The invoice bills ${formatCents(-difference)} less than purchase order ${order.number} (${amount} billed, ${order.amount} ordered): a partial delivery?` });
  }
  return findings;
}

function currencyFindings(currency: string | undefined): Finding[] {
  if (!currency) return [{ code: 'missing_currency', severity: 'warning', message: 'The invoice names no currency.' }];
  if (!(ACCEPTED_CURRENCIES as readonly string[]).includes(currency)) {
    return [{ code: 'currency_not_accepted', severity: 'error', message: `${currency} is not a currency we pay in (${ACCEPTED_CURRENCIES.join(', ')}).` }];
  }
  return [];
}

function verdictOf(findings: Finding[]): Verdict {
  if (findings.some((finding) => finding.severity === 'error')) return 'reject';
  if (findings.some((finding) => finding.severity === 'warning')) return 'review';
  return 'pass';
}

const toCents = (amount: number) => Math.round(amount * 100);
const formatCents = (cents: number) => (cents / 100).toFixed(2);
