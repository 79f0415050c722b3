import { scoreFit } from './fit-score';
import { leadIdFor } from './lead-id';
import type { LeadProfile } from './lead-profile';
import type { LeadSource } from './lead-source';

export interface Lead {
  lead_id: string;
  company: string;
  domain: string;
  industry: string;
  country: string;
  employees: number;
  fit_score: number;
  fit_reasons: string[];
}

/** `data` of a `sales.lead_list` artifact. */
export interface LeadList {
  profile: LeadProfile;
  leads: Lead[];
  /** Matching companies before `limit` was applied. */
  total_matched: number;
}

/** Best fit first; equal scores by name, then domain, so the order never depends on the source. */
export async function findLeads(profile: LeadProfile, source: LeadSource): Promise<LeadList> {
  const candidates = await source.search(profile);
  const seen = new Set<string>();
  const leads: Lead[] = [];
  for (const company of candidates) {
    const lead_id = leadIdFor(company.domain);
    if (seen.has(lead_id)) continue;
    seen.add(lead_id);
    const fit = scoreFit(company, profile);
    if (!fit.matched) continue;
    leads.push({
      lead_id,
      company: company.name,
      domain: company.domain,
      industry: company.industry,
      country: company.country,
      employees: company.employees,
      fit_score: fit.fit_score,
      fit_reasons: fit.fit_reasons,
    });
  }
  leads.sort((a, b) => b.fit_score - a.fit_score || compare(a.company, b.company) || compare(a.domain, b.domain));
  return { profile, leads: leads.slice(0, profile.limit), total_matched: leads.length };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
