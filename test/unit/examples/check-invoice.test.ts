import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_CURRENCIES, checkInvoice, nothingToCheck, type InvoiceInput } from '../../../examples/invoice-checker/check-invoice';
import { supplierMail } from '../../../examples/invoice-checker/supplier-mail';

const codes = (input: InvoiceInput) => checkInvoice(input).findings.map((finding) => `${finding.code}:${finding.severity}`);

/** Inputs as manifest.json's schema lets them through. */
const invoiceInput: fc.Arbitrary<InvoiceInput> = fc.record(
  {
    invoice_number: fc.string({ minLength: 1, maxLength: 20 }),
    amount: fc.double({ min: 0, max: 1e7, noNaN: true }),
    currency: fc.constantFrom('EUR', 'USD', 'JPY', 'SEK'),
    purchase_order: fc.record({ number: fc.string({ minLength: 1, maxLength: 10 }), amount: fc.double({ min: 0, max: 1e7, noNaN: true }) }),
    supplier_email: fc.emailAddress(),
  },
  { requiredKeys: ['invoice_number', 'amount'] },
);

describe('the invoice checker rules', () => {
  it('passes an invoice that matches its purchase order in an accepted currency', () => {
    const report = checkInvoice({ invoice_number: 'INV-1', amount: 120.5, currency: 'EUR', purchase_order: { number: 'PO-7', amount: 120.5 } });

    expect(report).toEqual({ invoice_number: 'INV-1', amount: 120.5, currency: 'EUR', purchase_order: 'PO-7', verdict: 'pass', findings: [] });
  });

  it('rejects an invoice above its purchase order, and names the difference', () => {
    const report = checkInvoice({ invoice_number: 'INV-2', amount: 150, currency: 'EUR', purchase_order: { number: 'PO-7', amount: 120 } });

    expect(report.verdict).toBe('reject');
    expect(report.findings).toEqual([{ code: 'purchase_order_mismatch', severity: 'error', message: expect.stringContaining('by 30.00') }]);
  });

  it('asks for a review of an invoice below its purchase order (a partial delivery)', () => {
    expect(codes({ invoice_number: 'INV-3', amount: 100, currency: 'USD', purchase_order: { number: 'PO-7', amount: 120 } })).toEqual(['purchase_order_mismatch:warning']);
    expect(checkInvoice({ invoice_number: 'INV-3', amount: 100, currency: 'USD', purchase_order: { number: 'PO-7', amount: 120 } }).verdict).toBe('review');
  });

  it('compares amounts in cents, so floating point noise is no mismatch', () => {
    expect(codes({ invoice_number: 'INV-4', amount: 0.1 + 0.2, currency: 'EUR', purchase_order: { number: 'PO-1', amount: 0.3 } })).toEqual([]);
  });

  it('flags a missing purchase order and a missing currency as warnings', () => {
    expect(codes({ invoice_number: 'INV-5', amount: 10 })).toEqual(['missing_purchase_order:warning', 'missing_currency:warning']);
  });

  it('refuses a currency accounts payable does not pay in, worst finding first', () => {
    const report = checkInvoice({ invoice_number: 'INV-6', amount: 10, currency: 'JPY' });

    expect(report.findings.map((finding) => finding.code)).toEqual(['currency_not_accepted', 'missing_purchase_order']);
    expect(report.verdict).toBe('reject');
  });

  it('notes a zero amount against a purchase order, and finds nothing to check without one', () => {
    expect(codes({ invoice_number: 'INV-7', amount: 0, currency: 'EUR', purchase_order: { number: 'PO-1', amount: 50 } })).toEqual(['zero_amount:info']);
    expect(nothingToCheck({ invoice_number: 'INV-7', amount: 0, currency: 'EUR', purchase_order: { number: 'PO-1', amount: 50 } })).toBeUndefined();
    expect(nothingToCheck({ invoice_number: 'INV-8', amount: 0 })).toMatch(/nothing to check/);
    expect(nothingToCheck({ invoice_number: 'INV-9', amount: 1 })).toBeUndefined();
  });

  it('gives the same report for the same input, with a verdict that follows the worst finding (the replay depends on it)', () => {
    fc.assert(
      fc.property(invoiceInput, (input) => {
        const report = checkInvoice(input);
        expect(checkInvoice(structuredClone(input))).toEqual(report);
        const worst = report.findings[0]?.severity;
        expect(report.verdict).toBe(worst === 'error' ? 'reject' : worst === 'warning' ? 'review' : 'pass');
        if (input.currency && !(ACCEPTED_CURRENCIES as readonly string[]).includes(input.currency)) expect(report.verdict).toBe('reject');
      }),
    );
  });

  it('writes a one-line subject and lists every finding in the mail', () => {
    fc.assert(
      fc.property(invoiceInput, fc.emailAddress(), (input, to) => {
        const report = checkInvoice(input);
        const mail = supplierMail(to, report);
        expect(mail).toMatchObject({ type: 'mail.send', to });
        expect(mail.subject).not.toMatch(/[\r\n]/);
        for (const finding of report.findings) expect(mail.body).toContain(finding.message);
        expect(supplierMail(to, report)).toEqual(mail);
      }),
    );
  });
});
