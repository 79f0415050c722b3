import { AgentFailure } from '#shared/agents/agent';
import { pickBestContact } from './best-contact';
import type { Company, IntentSignal } from './company';
import { bareAddress, singleLine } from './email-text';
import { leadIdFor } from './lead-id';
import { normaliseDomain, type LeadSource } from './lead-source';

/** `lead` of `sales.draft_email` input: a company to look up, or a person given explicitly. */
export type DraftLeadInput =
  | { domain: string }
  | { name: string; email: string; company: string; title?: string; domain?: string };

/** The recipient of a draft, with the company facts the templates may use (null when unknown). */
export interface DraftLead {
  lead_id: string;
  name: string;
  email: string;
  title: string | null;
  company: string;
  domain: string;
  industry: string | null;
  /** The newest intent signal of the company, the email's opening hook. */
  intent_signal: IntentSignal | null;
}

/**
 * Resolves the recipient. A `{ domain }` lead must be known to the lead source and have a contact,
 * else the task fails with `malformed_input` (the caller named a lead that cannot be written to).
 * An explicit lead resolves unless its name or company is blank once control characters are
 * dropped; its company facts come from the source when the lead's `domain` (default: the email's
 * domain) is known there.
 */
export async function resolveDraftLead(input: DraftLeadInput, source: LeadSource): Promise<DraftLead> {
  if (!('email' in input)) {
    const domain = normaliseDomain(input.domain);
    const [company] = await source.findByDomains([domain]);
    if (!company) {
      throw new AgentFailure('malformed_input', `No company with domain '${domain}' in the lead source.`, [
        { path: '/lead/domain', message: 'unknown to the lead source' },
      ]);
    }
    const contact = pickBestContact(company.contacts);
    if (!contact) {
      throw new AgentFailure('malformed_input', `The lead source has no contact at '${domain}'.`, [
        { path: '/lead/domain', message: 'company has no contacts' },
      ]);
    }
    return describe(company, { name: contact.name, email: contact.email, title: contact.title, company: company.name });
  }

  const blank = (['name', 'company'] as const).filter((key) => singleLine(input[key]) === '');
  if (blank.length > 0) {
    throw new AgentFailure('malformed_input', 'The lead needs a printable name and company.', blank.map((key) => ({ path: `/lead/${key}`, message: 'must contain visible characters' })));
  }
  const email = bareAddress(input.email);
  const domain = normaliseDomain(input.domain ?? email.slice(email.lastIndexOf('@') + 1));
  const [company] = await source.findByDomains([domain]);
  const person = { name: input.name, email, title: input.title ?? null, company: input.company };
  if (company) return describe(company, person);
  return { lead_id: leadIdFor(domain), ...clean(person), domain, industry: null, intent_signal: null };
}

interface Person {
  name: string;
  email: string;
  title: string | null;
  company: string;
}

function describe(company: Company, person: Person): DraftLead {
  const domain = normaliseDomain(company.domain);
  return {
    lead_id: leadIdFor(domain),
    ...clean(person),
    domain,
    industry: company.industry,
    intent_signal: newestSignal(company.signals),
  };
}

/** Names and titles end up in the subject line: one line each. */
function clean(person: Person): Person {
  return {
    name: singleLine(person.name),
    email: bareAddress(person.email),
    title: person.title === null ? null : singleLine(person.title) || null,
    company: singleLine(person.company),
  };
}

/** Newest first, ties by type: the same order `sales.enrich_leads` lists signals in. */
function newestSignal(signals: readonly IntentSignal[]): IntentSignal | null {
  const sorted = [...signals].sort((a, b) => compare(b.observed_on, a.observed_on) || compare(a.type, b.type));
  return sorted[0] ? { ...sorted[0] } : null;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
