/** A person at a company a salesperson could contact. */
export interface Contact {
  name: string;
  title: string;
  email: string;
  department: 'executive' | 'engineering' | 'data' | 'security' | 'legal' | 'operations' | 'sales' | 'people';
  seniority: 'c_level' | 'vp' | 'director' | 'manager' | 'individual';
}

export const intentSignalTypes = [
  'hiring',
  'funding',
  'expansion',
  'tech_adoption',
  'leadership_change',
  'compliance_deadline',
] as const;

export type IntentSignalType = (typeof intentSignalTypes)[number];

/** Something observable that suggests the company may buy soon. */
export interface IntentSignal {
  type: IntentSignalType;
  description: string;
  /** Calendar date the signal was observed, `YYYY-MM-DD`. */
  observed_on: string;
}

/** A company as a lead source knows it. */
export interface Company {
  /** Lower-case registrable domain; the company's identity across sources. */
  domain: string;
  name: string;
  industry: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  city: string;
  employees: number;
  founded: number;
  description: string;
  technologies: string[];
  contacts: Contact[];
  signals: IntentSignal[];
}
