import type { IntentSignalType } from './company';

/** An ideal-customer profile, as `sales.find_leads` input with defaults applied. */
export interface LeadProfile {
  industries: string[];
  countries: string[];
  employee_range: { min?: number; max?: number } | null;
  technologies: string[];
  keywords: string[];
  /** Intent signal types that count towards fit; empty means every type counts. */
  signals: IntentSignalType[];
  limit: number;
}

export const defaultLeadLimit = 25;

export interface LeadProfileInput {
  industries?: string[];
  countries?: string[];
  employee_range?: { min?: number; max?: number };
  technologies?: string[];
  keywords?: string[];
  signals?: IntentSignalType[];
  limit?: number;
}

const lowerUnique = (values: readonly string[] | undefined): string[] =>
  [...new Set((values ?? []).map((v) => v.trim().toLowerCase()).filter((v) => v.length > 0))];

/** Applies defaults and normalises case so matching and the echoed profile agree. */
export function normaliseProfile(input: LeadProfileInput): LeadProfile {
  return {
    industries: lowerUnique(input.industries),
    countries: [...new Set((input.countries ?? []).map((c) => c.toUpperCase()))],
    employee_range: input.employee_range ?? null,
    technologies: lowerUnique(input.technologies),
    keywords: lowerUnique(input.keywords),
    signals: [...new Set(input.signals ?? [])],
    limit: input.limit ?? defaultLeadLimit,
  };
}
