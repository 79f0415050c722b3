import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentFailure, type ApprovalDecision, type ApprovalRequest } from '#shared/agents/agent';
import type { Company } from '#shared/agents/sales/company';
import type { EmailDraft } from '#shared/agents/sales/draft-email';
import { leadIdFor } from '#shared/agents/sales/lead-id';
import { createStaticLeadSource } from '#shared/agents/sales/lead-source';
import { createSalesAgent, salesAgent } from '#shared/agents/sales/sales-agent';
import { RecordingContext } from './recording-context';

const product = {
  name: 'Gatehouse Audit',
  value_proposition: 'The audit maps your AI systems to EU AI Act obligations in days',
};
const sender = { name: 'Jordan Avery', title: 'Account Executive', company: 'Gatehouse', email: 'jordan@gatehouse.example' };

const approve = (request: ApprovalRequest): ApprovalDecision => ({ decision: 'approved', action: request.action, resolution: 'resolved' });
const deny = (request: ApprovalRequest): ApprovalDecision => ({ decision: 'denied', action: request.action, comment: 'Not now', resolution: 'resolved' });
const expire = (request: ApprovalRequest): ApprovalDecision => ({ decision: 'denied', action: request.action, resolution: 'expired' });

/** Runs `sales.draft_email` of the catalog's sales agent (bundled sample leads), approving by default. */
async function draft(input: unknown, decide: (request: ApprovalRequest) => ApprovalDecision = approve): Promise<RecordingContext> {
  const context = new RecordingContext();
  context.decide = decide;
  await salesAgent.handlers['sales.draft_email'](input, context);
  return context;
}

const emailDraft = (context: RecordingContext) => context.artifact<EmailDraft>('sales.email_draft');

describe('sales.draft_email draft', () => {
  it('emits one approval-gated sales.email_draft with to, subject, body, lead and tone', async () => {
    const context = await draft({ lead: { domain: 'xylomarket.example' }, product, sender });

    expect(context.artifacts).toHaveLength(1);
    expect(context.artifacts[0].options).toEqual({ approvalGated: true });
    const data = emailDraft(context);
    expect(data.to).toBe('tomas.lopez@xylomarket.example');
    expect(typeof data.subject).toBe('string');
    expect(typeof data.body).toBe('string');
    expect(data.tone).toBe('friendly');
    expect(data.lead).toEqual({
      lead_id: leadIdFor('xylomarket.example'),
      name: 'Tomas Lopez',
      email: 'tomas.lopez@xylomarket.example',
      title: 'VP Engineering',
      company: 'Xylo Market',
      domain: 'xylomarket.example',
      industry: 'retail',
      intent_signal: { type: 'funding', description: 'Raised a Series C round', observed_on: '2025-07-18' },
    });
  });

  it('is deterministic: the same input gives the same artifact and approval request', async () => {
    const input = { lead: { domain: 'arborlegal.example' }, product, tone: 'formal', sender, personalization: 'We met in Helsinki.' };

    const first = await draft(input);
    const second = await draft(structuredClone(input));

    expect(second.artifacts).toEqual(first.artifacts);
    expect(second.approvals).toEqual(first.approvals);
    expect(second.progressCalls).toEqual(first.progressCalls);
  });

  it('uses the company facts: newest intent signal and industry', async () => {
    // Arbor Legal's newest signal is the CTO appointment (2025-11-24).
    const data = emailDraft(await draft({ lead: { domain: 'arborlegal.example' }, product, tone: 'formal', sender }));

    expect(data.lead.intent_signal?.type).toBe('leadership_change');
    expect(data.body).toContain('Arbor Legal has new leadership (appointed a new Chief Technology Officer)');
    expect(data.body).toContain('organisations in the legal sector');
  });

  it('writes a different subject, greeting and sign-off per tone', async () => {
    const lead = { domain: 'xylomarket.example' };
    const [formal, friendly, concise] = await Promise.all(
      (['formal', 'friendly', 'concise'] as const).map(async (tone) => emailDraft(await draft({ lead, product, tone, sender }))),
    );

    expect(formal.subject).toBe('Gatehouse Audit: a proposal for Xylo Market');
    expect(friendly.subject).toBe('Tomas, an idea for Xylo Market');
    expect(concise.subject).toBe('Gatehouse Audit for Xylo Market');
    expect(formal.body.startsWith('Dear Tomas Lopez,\n\n')).toBe(true);
    expect(friendly.body.startsWith('Hi Tomas,\n\n')).toBe(true);
    expect(formal.body).toContain('Kind regards,\nJordan Avery\nAccount Executive\nGatehouse');
    expect(friendly.body).toContain('Best,\nJordan Avery\nGatehouse');
    expect(concise.body.endsWith('Jordan Avery, Gatehouse\n')).toBe(true);
    expect(concise.body.length).toBeLessThan(friendly.body.length);
    expect(friendly.body.length).toBeLessThan(formal.body.length);
    expect(new Set([formal.body, friendly.body, concise.body]).size).toBe(3);
  });

  it('defaults to the friendly tone and a generic sign-off without a sender', async () => {
    const data = emailDraft(await draft({ lead: { domain: 'xylomarket.example' }, product }));

    expect(data.tone).toBe('friendly');
    expect(data.body).toContain('Would you be open to a quick chat?');
    expect(data.body.endsWith('Best,\nThe Gatehouse Audit team\n')).toBe(true);
  });

  it('adds the call to action and personalization notes verbatim, as plain text', async () => {
    const data = emailDraft(
      await draft({
        lead: { domain: 'xylomarket.example' },
        product: { ...product, call_to_action: 'Can I send you a sample report?' },
        personalization: 'We met at the Retail Summit.\r\nYour talk on pricing was great.',
      }),
    );

    expect(data.body).toContain('\n\nWe met at the Retail Summit.\nYour talk on pricing was great.\n\nCan I send you a sample report?\n\n');
    expect(data.body).not.toContain('\r');
    expect(data.body).toContain('obligations in days.'); // the value proposition becomes a sentence
  });

  it('strips line breaks from everything that becomes a header (no header injection)', async () => {
    const context = await draft({
      lead: {
        name: 'Ada\r\nBcc: victim@elsewhere.example',
        email: 'ada@newco.example\r\nCc: victim@elsewhere.example',
        company: 'NewCo\nX-Injected: yes',
        title: 'CTO\r',
      },
      product: { ...product, name: 'Audit\r\nContent-Type: text/html' },
      tone: 'formal',
    });

    const data = emailDraft(context);
    for (const header of [data.to, data.subject]) expect(header).not.toMatch(/[\r\n]/);
    expect(data.to).toBe('ada@newco.exampleCc:victim@elsewhere.example');
    expect(data.subject).toBe('Audit Content-Type: text/html: a proposal for NewCo X-Injected: yes');
    expect(data.body).not.toContain('\r');
    expect(data.body.startsWith('Dear Ada Bcc: victim@elsewhere.example,\n\n')).toBe(true);
    expect(context.approvals[0].action).toMatchObject({ to: data.to, subject: data.subject });
  });

  it('keeps to and subject on one line whatever the lead and product say (property)', async () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((s) => /[^\s\u0000-\u001f\u007f-\u009f]/.test(s));
    await fc.assert(
      fc.asyncProperty(text, text, text, text, fc.constantFrom('formal', 'friendly', 'concise'), async (name, local, company, productName, tone) => {
        const context = await draft({ lead: { name, email: `${local}@newco.example`, company }, product: { ...product, name: productName }, tone });
        const data = emailDraft(context);
        expect(data.to).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
        expect(data.subject).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
        expect(data.body).not.toContain('\r');
        expect(context.approvals[0].action).toEqual({ type: 'mail.send', to: data.to, subject: data.subject, body: data.body });
      }),
      { numRuns: 200 },
    );
  });
});

describe('sales.draft_email lead resolution', () => {
  it('looks a domain up in the lead source (normalised) and addresses its most senior contact', async () => {
    const data = emailDraft(await draft({ lead: { domain: 'https://www.XyloMarket.example/about' }, product }));

    // Xylo Market has a VP Engineering and an Engineering Manager.
    expect(data.to).toBe('tomas.lopez@xylomarket.example');
  });

  it('prefers the executive among contacts of the same seniority, whatever the source order', async () => {
    const company: Company = {
      domain: 'acme.example', name: 'Acme', industry: 'saas', country: 'DE', city: 'Berlin', employees: 50, founded: 2020,
      description: 'Software.', technologies: [], signals: [],
      contacts: [
        { name: 'Zoe Legal', title: 'General Counsel', email: 'zoe@acme.example', department: 'legal', seniority: 'c_level' },
        { name: 'Ian Junior', title: 'Engineer', email: 'ian@acme.example', department: 'engineering', seniority: 'individual' },
        { name: 'Yan Chief', title: 'CEO', email: 'yan@acme.example', department: 'executive', seniority: 'c_level' },
      ],
    };
    const agent = createSalesAgent({ leadSource: createStaticLeadSource([company]) });
    const context = new RecordingContext();
    context.decide = approve;

    await agent.handlers['sales.draft_email']({ lead: { domain: 'acme.example' }, product, tone: 'concise' }, context);

    const data = emailDraft(context);
    expect(data.to).toBe('yan@acme.example');
    expect(data.lead.industry).toBe('saas');
    expect(data.lead.intent_signal).toBeNull();
  });

  it('fails with malformed_input for a domain the lead source does not know, before emitting anything', async () => {
    const context = new RecordingContext();
    context.decide = approve;

    const run = salesAgent.handlers['sales.draft_email']({ lead: { domain: 'nobody.example' }, product }, context);

    await expect(run).rejects.toBeInstanceOf(AgentFailure);
    await expect(run).rejects.toMatchObject({ code: 'malformed_input', details: [{ path: '/lead/domain', message: 'unknown to the lead source' }] });
    expect(context.artifacts).toEqual([]);
    expect(context.approvals).toEqual([]);
  });

  it('fails with malformed_input when the company has no contact to write to', async () => {
    const company: Company = {
      domain: 'empty.example', name: 'Empty', industry: 'retail', country: 'FR', city: 'Paris', employees: 5, founded: 2021,
      description: 'Shop.', technologies: [], signals: [], contacts: [],
    };
    const agent = createSalesAgent({ leadSource: createStaticLeadSource([company]) });

    const run = agent.handlers['sales.draft_email']({ lead: { domain: 'empty.example' }, product }, new RecordingContext());

    await expect(run).rejects.toMatchObject({ code: 'malformed_input', details: [{ path: '/lead/domain' }] });
  });

  it('writes to an explicit lead, with company facts when its email domain is known', async () => {
    const data = emailDraft(
      await draft({ lead: { name: 'Mia Byrne', email: 'mia.byrne@xylomarket.example', company: 'Xylo Market', title: 'Engineering Manager' }, product }),
    );

    expect(data.to).toBe('mia.byrne@xylomarket.example');
    expect(data.lead).toMatchObject({ name: 'Mia Byrne', title: 'Engineering Manager', domain: 'xylomarket.example', industry: 'retail' });
    expect(data.body).toContain('Xylo Market has new funding');
  });

  it('writes to an explicit lead of an unknown company without company facts', async () => {
    const data = emailDraft(await draft({ lead: { name: 'Ada Moreau', email: 'ada@newco.example', company: 'NewCo' }, product, tone: 'formal' }));

    expect(data.lead).toEqual({
      lead_id: leadIdFor('newco.example'),
      name: 'Ada Moreau',
      email: 'ada@newco.example',
      title: null,
      company: 'NewCo',
      domain: 'newco.example',
      industry: null,
      intent_signal: null,
    });
    expect(data.body).not.toContain('I understand that');
    expect(data.body).not.toContain('sector');
  });

  it('fails with malformed_input for an explicit lead whose name is only line breaks', async () => {
    const run = draft({ lead: { name: '\r\n', email: 'ada@newco.example', company: 'NewCo' }, product });

    await expect(run).rejects.toMatchObject({ code: 'malformed_input', details: [{ path: '/lead/name' }] });
  });
});

describe('sales.draft_email approval', () => {
  it('asks for approval after emitting the draft, with an action equal to the draft', async () => {
    const context = new RecordingContext();
    let stateAtRequest: { progress: number; artifacts: number } | undefined;
    context.decide = (request) => {
      stateAtRequest = { progress: context.progressCalls.length, artifacts: context.artifacts.length };
      return approve(request);
    };

    await salesAgent.handlers['sales.draft_email']({ lead: { domain: 'xylomarket.example' }, product, sender }, context);

    const data = emailDraft(context);
    expect(stateAtRequest).toEqual({ progress: 1, artifacts: 1 });
    expect(context.approvals).toHaveLength(1);
    expect(context.approvals[0].title).toBe('Send outreach email to Tomas Lopez');
    expect(context.approvals[0].description).toContain('tomas.lopez@xylomarket.example');
    expect(context.approvals[0].action).toEqual({ type: 'mail.send', to: data.to, subject: data.subject, body: data.body });
  });

  it('reports the email as sent when approved, and never sends itself', async () => {
    const context = await draft({ lead: { domain: 'xylomarket.example' }, product });

    expect(context.progressCalls).toEqual([
      { message: 'Drafting outreach email', progress: 0.2 },
      { message: 'Approved: email to tomas.lopez@xylomarket.example sent', progress: 1 },
    ]);
    expect(context.artifacts).toHaveLength(1);
  });

  it('names the edited recipient when the approver changed the action', async () => {
    const context = await draft({ lead: { domain: 'xylomarket.example' }, product }, (request) => ({
      decision: 'approved',
      action: { ...request.action, to: 'mia.byrne@xylomarket.example' },
    }));

    expect(context.progressCalls.at(-1)?.message).toBe('Approved: email to mia.byrne@xylomarket.example sent');
  });

  it('completes without sending when denied', async () => {
    const context = await draft({ lead: { domain: 'xylomarket.example' }, product }, deny);

    expect(context.progressCalls.at(-1)).toEqual({ message: 'Denied: email to tomas.lopez@xylomarket.example was not sent', progress: 1 });
    expect(context.artifacts).toHaveLength(1);
  });

  it('completes without sending when the approval expired', async () => {
    const context = await draft({ lead: { domain: 'xylomarket.example' }, product }, expire);

    expect(context.progressCalls.at(-1)).toEqual({ message: 'Approval expired: email to tomas.lopez@xylomarket.example was not sent', progress: 1 });
    expect(context.artifacts).toHaveLength(1);
  });
});
