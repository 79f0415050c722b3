import type { Company } from './company';
import type { LeadProfile } from './lead-profile';
import { sampleCompanies } from './sample-leads';

/**
 * Where leads come from. The agent scores and filters what `search` returns, so a source may
 * return a superset (a cheap pre-filter) or everything it has.
 */
export interface LeadSource {
  /** Candidate companies for a profile. */
  search(profile: LeadProfile): Promise<Company[]>;
  /** Companies with these (normalised) domains; unknown domains are simply absent. */
  findByDomains(domains: readonly string[]): Promise<Company[]>;
}

/**
 * Normalises what people paste as a domain: case, scheme, `www.`, path, port and trailing dot.
 */
export function normaliseDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#:].*$/, '')
    .replace(/\.$/, '');
}

/** A lead source over a fixed in-memory list (the bundled sample, or a test's own list). */
export function createStaticLeadSource(companies: readonly Company[]): LeadSource {
  const byDomain = new Map(companies.map((c) => [normaliseDomain(c.domain), c]));
  return {
    async search() {
      return [...companies];
    },
    async findByDomains(domains) {
      return domains.flatMap((d) => byDomain.get(normaliseDomain(d)) ?? []);
    },
  };
}

/** The bundled fictional data set (docs/sales-agent.md). */
export const sampleLeadSource: LeadSource = createStaticLeadSource(sampleCompanies);
