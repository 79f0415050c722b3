import type { IntentSignal } from './company';
import type { DraftLead } from './draft-lead';
import { asSentence, firstName, lowerFirst } from './email-text';

export const emailTones = ['formal', 'friendly', 'concise'] as const;
export type EmailTone = (typeof emailTones)[number];
export const defaultEmailTone: EmailTone = 'friendly';

export interface Product {
  name: string;
  /** Full sentences on what the product does for the lead; the concise tone uses them alone. */
  value_proposition: string;
  call_to_action?: string;
}

export interface Sender {
  name: string;
  title?: string;
  company: string;
  email?: string;
}

/** Everything a template may use; strings are already cleaned (see email-text.ts). */
export interface EmailFacts {
  lead: DraftLead;
  product: Product;
  sender?: Sender;
  personalization?: string;
}

export interface RenderedEmail {
  subject: string;
  body: string;
}

/** Renders the subject and plain-text body for a tone. Pure: same facts, same text. */
export function renderEmail(tone: EmailTone, facts: EmailFacts): RenderedEmail {
  const template = templates[tone];
  const paragraphs = [template.greeting(facts), ...template.paragraphs(facts), facts.personalization, template.callToAction(facts)];
  const body = [...paragraphs.filter((p): p is string => Boolean(p)), template.signature(facts)].join('\n\n');
  return { subject: template.subject(facts), body: `${body}\n` };
}

interface Template {
  subject(facts: EmailFacts): string;
  greeting(facts: EmailFacts): string;
  /** Opening paragraphs: hook from the company facts, introduction, value proposition. */
  paragraphs(facts: EmailFacts): (string | undefined)[];
  callToAction(facts: EmailFacts): string;
  signature(facts: EmailFacts): string;
}

const templates: Record<EmailTone, Template> = {
  formal: {
    subject: ({ product, lead }) => `${product.name}: a proposal for ${lead.company}`,
    greeting: ({ lead }) => `Dear ${lead.name},`,
    paragraphs: ({ lead, product, sender }) => [
      lead.intent_signal ? `I understand that ${signalPhrase(lead.intent_signal, lead.company)}.` : undefined,
      [
        sender ? `My name is ${sender.name}${sender.title ? `, ${sender.title}` : ''} at ${sender.company}.` : undefined,
        `I am writing to introduce ${product.name}. ${asSentence(product.value_proposition)}`,
        lead.industry ? `We support organisations in ${sector(lead.industry)} with similar priorities.` : undefined,
      ]
        .filter(Boolean)
        .join(' '),
    ],
    callToAction: ({ product, lead }) =>
      product.call_to_action ?? `Would you be available for a short call to discuss whether ${product.name} could support ${lead.company}?`,
    signature: ({ sender, product }) =>
      sender ? lines('Kind regards,', sender.name, sender.title, sender.company, sender.email) : lines('Kind regards,', `The ${product.name} team`),
  },
  friendly: {
    subject: ({ lead }) => `${firstName(lead.name)}, an idea for ${lead.company}`,
    greeting: ({ lead }) => `Hi ${firstName(lead.name)},`,
    paragraphs: ({ lead, product, sender }) => [
      lead.intent_signal ? `I saw that ${signalPhrase(lead.intent_signal, lead.company)}, and it made me think of you.` : undefined,
      [
        sender ? `I'm ${firstName(sender.name)} from ${sender.company}.` : undefined,
        `I wanted to share ${product.name}. ${asSentence(product.value_proposition)}`,
        lead.industry ? `We work with a number of ${industryLabel(lead.industry)} teams, so this might be useful for you too.` : undefined,
      ]
        .filter(Boolean)
        .join(' '),
    ],
    callToAction: ({ product }) => product.call_to_action ?? 'Would you be open to a quick chat?',
    signature: ({ sender, product }) =>
      sender ? lines('Best,', sender.name, sender.company, sender.email) : lines('Best,', `The ${product.name} team`),
  },
  concise: {
    subject: ({ product, lead }) => `${product.name} for ${lead.company}`,
    greeting: ({ lead }) => `Hi ${firstName(lead.name)},`,
    paragraphs: ({ lead, product }) => [
      [lead.intent_signal ? `Saw that ${signalPhrase(lead.intent_signal, lead.company)}.` : undefined, asSentence(product.value_proposition)]
        .filter(Boolean)
        .join(' '),
    ],
    callToAction: ({ product }) => product.call_to_action ?? 'Worth a 15-minute call?',
    signature: ({ sender, product }) => (sender ? `${sender.name}, ${sender.company}` : `The ${product.name} team`),
  },
};

/** One clause per signal type that reads in every template; the source's wording in brackets. */
function signalPhrase(signal: IntentSignal, company: string): string {
  const detail = lowerFirst(signal.description);
  switch (signal.type) {
    case 'hiring':
      return `${company} is growing its team (${detail})`;
    case 'funding':
      return `${company} has new funding (${detail})`;
    case 'expansion':
      return `${company} is expanding (${detail})`;
    case 'tech_adoption':
      return `${company} is investing in its technology (${detail})`;
    case 'leadership_change':
      return `${company} has new leadership (${detail})`;
    case 'compliance_deadline':
      return `${company} has a compliance milestone ahead (${detail})`;
  }
}

/** `human_resources` → `human resources`, `saas` → `SaaS`. */
function industryLabel(industry: string): string {
  return industry.toLowerCase() === 'saas' ? 'SaaS' : industry.replace(/_/g, ' ');
}

/** `retail` → `the retail sector`, `public_sector` → `the public sector`. */
function sector(industry: string): string {
  const label = industryLabel(industry);
  return /\bsector$/i.test(label) ? `the ${label}` : `the ${label} sector`;
}

function lines(...values: (string | undefined)[]): string {
  return values.filter(Boolean).join('\n');
}
