import type { ApprovalRequest } from '#shared/agents/agent';
import type { DraftLead, DraftLeadInput } from './draft-lead';
import { plainText, singleLine } from './email-text';
import { defaultEmailTone, renderEmail, type EmailTone, type Product, type Sender } from './email-templates';

/** `sales.draft_email` input, as its schema allows it. */
export interface DraftEmailInput {
  lead: DraftLeadInput;
  product: Product;
  tone?: EmailTone;
  sender?: Sender;
  /** Free-text notes, added verbatim as their own paragraph. */
  personalization?: string;
}

/** `data` of a `sales.email_draft` artifact. */
export interface EmailDraft {
  to: string;
  subject: string;
  body: string;
  lead: DraftLead;
  tone: EmailTone;
}

/** The approval action that sends a draft: the service executes it, never the agent. */
export interface MailSendAction {
  type: 'mail.send';
  to: string;
  subject: string;
  body: string;
  [key: string]: unknown;
}

export const mailSendActionType = 'mail.send';

/**
 * Builds the draft for a resolved lead. Deterministic (no clock, no randomness), so a replayed
 * run emits the very same draft. `to` and `subject` are single lines: they become mail headers.
 */
export function draftEmail(input: DraftEmailInput, lead: DraftLead): EmailDraft {
  const tone = input.tone ?? defaultEmailTone;
  const product: Product = {
    name: singleLine(input.product.name),
    value_proposition: singleLine(input.product.value_proposition),
    ...(input.product.call_to_action !== undefined ? { call_to_action: singleLine(input.product.call_to_action) } : {}),
  };
  const sender: Sender | undefined = input.sender && {
    name: singleLine(input.sender.name),
    company: singleLine(input.sender.company),
    ...(input.sender.title !== undefined ? { title: singleLine(input.sender.title) } : {}),
    ...(input.sender.email !== undefined ? { email: singleLine(input.sender.email) } : {}),
  };
  const personalization = input.personalization === undefined ? undefined : plainText(input.personalization) || undefined;
  const { subject, body } = renderEmail(tone, { lead, product, ...(sender ? { sender } : {}), ...(personalization ? { personalization } : {}) });
  return { to: lead.email, subject: singleLine(subject), body: plainText(body) + '\n', lead, tone };
}

/** The human decision the draft waits for; its action is exactly the draft's to, subject, body. */
export function sendApprovalRequest(draft: EmailDraft): ApprovalRequest & { action: MailSendAction } {
  const who = draft.lead.title ? `${draft.lead.name} (${draft.lead.title}, ${draft.lead.company})` : `${draft.lead.name} (${draft.lead.company})`;
  return {
    title: `Send outreach email to ${draft.lead.name}`,
    description: `Send a ${draft.tone} outreach email to ${who} at ${draft.to} with the subject "${draft.subject}". Nothing is sent unless this is approved.`,
    action: { type: mailSendActionType, to: draft.to, subject: draft.subject, body: draft.body },
  };
}
