import type { Contact, IntentSignal } from './company';
import { intentScore } from './intent-score';
import { leadIdFor } from './lead-id';
import { normaliseDomain, type LeadSource } from './lead-source';

export interface LeadReference {
  lead_id?: string;
  domain: string;
}

export interface EnrichedLead {
  lead_id: string;
  company: string;
  domain: string;
  industry: string;
  country: string;
  city: string;
  employees: number;
  founded: number;
  description: string;
  tech_stack: string[];
  contacts: Contact[];
  intent_signals: IntentSignal[];
  intent_score: number;
}

/** `data` of a `sales.enriched_lead_list` artifact. */
export interface EnrichedLeadList {
  leads: EnrichedLead[];
  not_found: { lead_id: string; domain: string }[];
  total_requested: number;
  total_enriched: number;
}

const seniorityOrder: Contact['seniority'][] = ['c_level', 'vp', 'director', 'manager', 'individual'];

/**
 * Enriches leads in input order. Repeated domains are enriched once (first reference wins);
 * a caller's lead_id is kept, otherwise the domain-derived id is used.
 */
export async function enrichLeads(references: readonly LeadReference[], source: LeadSource): Promise<EnrichedLeadList> {
  const unique: { lead_id: string; domain: string }[] = [];
  const seen = new Set<string>();
  for (const ref of references) {
    const domain = normaliseDomain(ref.domain);
    if (seen.has(domain)) continue;
    seen.add(domain);
    unique.push({ lead_id: ref.lead_id ?? leadIdFor(domain), domain });
  }
  const companies = await source.findByDomains(unique.map((u) => u.domain));
  const byDomain = new Map(companies.map((c) => [normaliseDomain(c.domain), c]));

  const leads: EnrichedLead[] = [];
  const notFound: { lead_id: string; domain: string }[] = [];
  for (const ref of unique) {
    const c = byDomain.get(ref.domain);
    if (!c) {
      notFound.push(ref);
      continue;
    }
    const signals = [...c.signals].sort((a, b) => compare(b.observed_on, a.observed_on) || compare(a.type, b.type));
    leads.push({
      lead_id: ref.lead_id,
      company: c.name,
      domain: c.domain,
      industry: c.industry,
      country: c.country,
      city: c.city,
      employees: c.employees,
      founded: c.founded,
      description: c.description,
      tech_stack: [...c.technologies].sort(compare),
      // Most senior first: those are the people outreach should start with.
      contacts: [...c.contacts].sort(
        (a, b) => seniorityOrder.indexOf(a.seniority) - seniorityOrder.indexOf(b.seniority) || compare(a.name, b.name),
      ),
      intent_signals: signals,
      intent_score: intentScore(signals),
    });
  }
  return { leads, not_found: notFound, total_requested: unique.length, total_enriched: leads.length };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
