import { annexIiiCategories, type AiSystemInput, type SystemRole } from './ai-system';

export type RiskClass = 'high' | 'limited' | 'minimal';

/** A system with its input defaults applied and its EU AI Act risk class derived. */
export interface ClassifiedSystem {
  id: string;
  name: string;
  category: AiSystemInput['category'];
  role: SystemRole;
  risk_class: RiskClass;
  /** Why the class was chosen, for the executive summary. */
  risk_basis: string;
  is_provider: boolean;
  is_deployer: boolean;
  interacts_with_people: boolean;
  generates_content: boolean;
  makes_decisions_about_people: boolean;
  uses_personal_data: boolean;
  public_service: boolean;
  evidence: ReadonlySet<string>;
}

const annexIii: ReadonlySet<string> = new Set(annexIiiCategories);

/**
 * Classifies a system: Annex III area or product safety component → high (Art. 6); a system
 * that talks to people or generates content → limited (Art. 50 transparency); otherwise minimal.
 * The Art. 6(3) derogation is deliberately not applied: claiming it needs a documented
 * assessment, which is what rule EUAIA-RC-03 asks for.
 */
export function classifySystem(system: AiSystemInput, organisationEvidence: ReadonlySet<string>): ClassifiedSystem {
  const role = system.role ?? 'both';
  // A chatbot talks to people and a content generator generates content by definition.
  const interacts = system.category === 'chatbot' || system.interacts_with_people === true;
  const generates = system.category === 'content_generation' || system.generates_content === true;
  let riskClass: RiskClass;
  let basis: string;
  if (annexIii.has(system.category)) {
    riskClass = 'high';
    basis = `Annex III area: ${system.category}`;
  } else if (system.safety_component === true) {
    riskClass = 'high';
    basis = 'safety component of a product (Art. 6(1))';
  } else if (interacts || generates) {
    riskClass = 'limited';
    basis = 'transparency obligations (Art. 50)';
  } else {
    riskClass = 'minimal';
    basis = 'no Annex III area and no Art. 50 trigger';
  }
  return {
    id: system.id,
    name: system.name,
    category: system.category,
    role,
    risk_class: riskClass,
    risk_basis: basis,
    is_provider: role !== 'deployer',
    is_deployer: role !== 'provider',
    interacts_with_people: interacts,
    generates_content: generates,
    makes_decisions_about_people: system.makes_decisions_about_people ?? false,
    uses_personal_data: system.uses_personal_data ?? false,
    public_service: system.public_service ?? false,
    evidence: new Set([...organisationEvidence, ...(system.evidence ?? [])]),
  };
}
