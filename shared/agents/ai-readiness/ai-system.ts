import type { EvidenceId } from './evidence-catalogue';

/** EU AI Act Annex III areas: a system used in one of these is high-risk (Art. 6(2)). */
export const annexIiiCategories = [
  'biometrics',
  'critical_infrastructure',
  'education',
  'employment',
  'essential_services',
  'law_enforcement',
  'migration',
  'justice',
] as const;

/** Categories outside Annex III. */
export const otherCategories = ['general_purpose', 'chatbot', 'content_generation', 'internal_tooling', 'other'] as const;

export const systemCategories = [...annexIiiCategories, ...otherCategories] as const;

export type SystemCategory = (typeof systemCategories)[number];

/** Whether the tenant builds the system (provider), uses it (deployer), or both. */
export type SystemRole = 'provider' | 'deployer' | 'both';

/** One of the tenant's AI systems as described in task input. */
export interface AiSystemInput {
  id: string;
  name: string;
  purpose?: string;
  category: SystemCategory;
  /** Defaults to `both`: with no statement we audit the obligations of either role. */
  role?: SystemRole;
  /** Safety component of a product under Annex I harmonisation law (Art. 6(1)). */
  safety_component?: boolean;
  interacts_with_people?: boolean;
  generates_content?: boolean;
  makes_decisions_about_people?: boolean;
  uses_personal_data?: boolean;
  /** Deployer is a public body or provides a public service (Art. 27 FRIA trigger). */
  public_service?: boolean;
  /** Evidence held for this system only. */
  evidence?: EvidenceId[];
}
