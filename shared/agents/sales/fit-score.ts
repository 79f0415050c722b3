import type { Company } from './company';
import type { LeadProfile } from './lead-profile';

/**
 * Points per criterion. Only criteria the profile states count towards the maximum, except
 * intent, which always counts: fit_score = round(100 × earned / maximum).
 */
export const fitWeights = {
  industry: 30,
  country: 15,
  employees: 20,
  technologies: 20,
  keywords: 15,
  intent: 10,
} as const;

/** Signals at which the intent criterion is fully earned. */
export const intentSignalsForFullPoints = 2;

export interface FitResult {
  /** Passes the hard filters (industry, country, size) and, if stated, matches a technology or keyword. */
  matched: boolean;
  fit_score: number;
  fit_reasons: string[];
}

function searchableText(company: Company): string {
  return [company.name, company.industry, company.description, ...company.technologies].join(' ').toLowerCase();
}

function inRange(employees: number, range: { min?: number; max?: number }): boolean {
  return (range.min === undefined || employees >= range.min) && (range.max === undefined || employees <= range.max);
}

/** Scores one company against a normalised profile. */
export function scoreFit(company: Company, profile: LeadProfile): FitResult {
  let earned = 0;
  let maximum = 0;
  let passesFilters = true;
  const reasons: string[] = [];

  if (profile.industries.length > 0) {
    maximum += fitWeights.industry;
    if (profile.industries.includes(company.industry.toLowerCase())) {
      earned += fitWeights.industry;
      reasons.push(`industry ${company.industry}`);
    } else passesFilters = false;
  }
  if (profile.countries.length > 0) {
    maximum += fitWeights.country;
    if (profile.countries.includes(company.country.toUpperCase())) {
      earned += fitWeights.country;
      reasons.push(`based in ${company.country}`);
    } else passesFilters = false;
  }
  if (profile.employee_range) {
    maximum += fitWeights.employees;
    if (inRange(company.employees, profile.employee_range)) {
      earned += fitWeights.employees;
      reasons.push(`${company.employees} employees, within the requested range`);
    } else passesFilters = false;
  }

  let softStated = false;
  let softMatched = false;
  if (profile.technologies.length > 0) {
    softStated = true;
    maximum += fitWeights.technologies;
    const stack = new Set(company.technologies.map((t) => t.toLowerCase()));
    const used = profile.technologies.filter((t) => stack.has(t));
    if (used.length > 0) {
      softMatched = true;
      earned += (fitWeights.technologies * used.length) / profile.technologies.length;
      reasons.push(`uses ${used.join(', ')} (${used.length} of ${profile.technologies.length} technologies)`);
    }
  }
  if (profile.keywords.length > 0) {
    softStated = true;
    maximum += fitWeights.keywords;
    const text = searchableText(company);
    const found = profile.keywords.filter((k) => text.includes(k));
    if (found.length > 0) {
      softMatched = true;
      earned += (fitWeights.keywords * found.length) / profile.keywords.length;
      reasons.push(`mentions ${found.map((k) => `"${k}"`).join(', ')}`);
    }
  }

  maximum += fitWeights.intent;
  const signals = company.signals.filter((s) => profile.signals.length === 0 || profile.signals.includes(s.type));
  if (signals.length > 0) {
    earned += (fitWeights.intent * Math.min(signals.length, intentSignalsForFullPoints)) / intentSignalsForFullPoints;
    reasons.push(`intent: ${signals.map((s) => s.description).join('; ')}`);
  }

  return {
    matched: passesFilters && (!softStated || softMatched),
    fit_score: Math.round((100 * earned) / maximum),
    fit_reasons: reasons,
  };
}
