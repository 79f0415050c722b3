import type { EvidenceId } from './evidence-catalogue';
import type { ClassifiedSystem } from './risk-classification';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export const severities: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** Weight of a rule in every score; a critical gap costs four times a low one. */
export const severityWeight: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1 };

export const readinessDomains = [
  'risk_classification',
  'human_oversight',
  'data_governance',
  'transparency',
  'security',
  'technical_documentation',
] as const;

export type ReadinessDomain = (typeof readinessDomains)[number];

interface RuleBase {
  id: string;
  domain: ReadinessDomain;
  severity: Severity;
  /** EU AI Act provision the rule comes from. */
  article: string;
  /** Short statement of the gap when the rule is not satisfied. */
  title: string;
  /** Human statement of `appliesTo`, mirrored in docs/ai-readiness-rules.md. */
  applies_when: string;
  /** All of these must be held for the rule to be satisfied. */
  evidence: EvidenceId[];
  remediation: string;
}

/** Evaluated once for the tenant against organisation-wide evidence. */
export interface OrganisationRule extends RuleBase {
  scope: 'organisation';
}

/** Evaluated once per system for which `appliesTo` holds. */
export interface SystemRule extends RuleBase {
  scope: 'system';
  appliesTo(system: ClassifiedSystem): boolean;
}

export type ReadinessRule = OrganisationRule | SystemRule;

const highRisk = (s: ClassifiedSystem): boolean => s.risk_class === 'high';
const highRiskProvider = (s: ClassifiedSystem): boolean => highRisk(s) && s.is_provider;
const highRiskDeployer = (s: ClassifiedSystem): boolean => highRisk(s) && s.is_deployer;

/** The rule table. Order is irrelevant: reports sort by severity, then id. */
export const readinessRules: readonly ReadinessRule[] = [
  // Risk classification
  {
    id: 'EUAIA-RC-01', scope: 'organisation', domain: 'risk_classification', severity: 'critical',
    article: 'Art. 6 + Annex III', applies_when: 'always (organisation)',
    title: 'No inventory of AI systems with a documented risk class',
    evidence: ['ai_inventory'],
    remediation: 'Build and maintain an inventory of every AI system you develop or use, recording owner, purpose, role (provider/deployer) and EU AI Act risk class.',
  },
  {
    id: 'EUAIA-RC-02', scope: 'organisation', domain: 'risk_classification', severity: 'critical',
    article: 'Art. 5', applies_when: 'always (organisation)',
    title: 'AI use has not been screened against prohibited practices',
    evidence: ['prohibited_practices_screening'],
    remediation: 'Screen every AI use against the Art. 5 prohibitions (manipulation, social scoring, untargeted face scraping, emotion recognition at work or school, etc.) and record the outcome.',
  },
  {
    id: 'EUAIA-RC-03', scope: 'system', domain: 'risk_classification', severity: 'high',
    article: 'Art. 6(3)-(4) + Annex III', applies_when: 'every system',
    appliesTo: () => true,
    title: 'System has no documented risk classification',
    evidence: ['risk_classification_record'],
    remediation: 'Document the classification of the system against Art. 6 and Annex III, including the reasoning for any Art. 6(3) derogation.',
  },
  {
    id: 'EUAIA-RC-04', scope: 'system', domain: 'risk_classification', severity: 'critical',
    article: 'Art. 9', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'High-risk system has no risk management system',
    evidence: ['risk_management_system'],
    remediation: 'Establish a documented risk management process that identifies, evaluates and mitigates foreseeable risks across the system lifecycle and is reviewed regularly.',
  },
  {
    id: 'EUAIA-RC-05', scope: 'system', domain: 'risk_classification', severity: 'high',
    article: 'Art. 27', applies_when: 'high-risk system, tenant deploys it, and it serves the public (public_service) or is in essential_services',
    appliesTo: (s) => highRiskDeployer(s) && (s.public_service || s.category === 'essential_services'),
    title: 'No fundamental rights impact assessment before deployment',
    evidence: ['fundamental_rights_impact_assessment'],
    remediation: 'Carry out a fundamental rights impact assessment before first use and notify the market surveillance authority of its results.',
  },
  {
    id: 'EUAIA-RC-06', scope: 'system', domain: 'risk_classification', severity: 'medium',
    article: 'Art. 49', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'High-risk system is not registered in the EU database',
    evidence: ['eu_database_registration'],
    remediation: 'Register the system (and yourself as provider) in the EU database before placing it on the market.',
  },
  // Human oversight
  {
    id: 'EUAIA-HO-01', scope: 'organisation', domain: 'human_oversight', severity: 'high',
    article: 'Art. 4', applies_when: 'always (organisation)',
    title: 'Staff working with AI lack documented AI literacy',
    evidence: ['ai_literacy_training'],
    remediation: 'Run an AI literacy programme for staff who build, operate or rely on AI systems and keep attendance records.',
  },
  {
    id: 'EUAIA-HO-02', scope: 'organisation', domain: 'human_oversight', severity: 'medium',
    article: 'Art. 17(1)(m), Art. 26(2)', applies_when: 'always (organisation)',
    title: 'No AI governance policy naming accountable owners',
    evidence: ['ai_governance_policy'],
    remediation: 'Adopt an AI governance policy that names an accountable owner per system and defines approval and escalation paths.',
  },
  {
    id: 'EUAIA-HO-03', scope: 'system', domain: 'human_oversight', severity: 'critical',
    article: 'Art. 14', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'High-risk system has no human oversight procedure',
    evidence: ['human_oversight_procedure'],
    remediation: 'Define who oversees the system, what they monitor, and when they must intervene; design the interface so overseers can interpret outputs.',
  },
  {
    id: 'EUAIA-HO-04', scope: 'system', domain: 'human_oversight', severity: 'high',
    article: 'Art. 14(4)(d)-(e)', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'Operators cannot override or stop the system',
    evidence: ['override_mechanism'],
    remediation: 'Provide and test a way for overseers to disregard, reverse or stop the system output (a stop button or equivalent procedure).',
  },
  {
    id: 'EUAIA-HO-05', scope: 'system', domain: 'human_oversight', severity: 'medium',
    article: 'Art. 26(2)', applies_when: 'high-risk system the tenant deploys',
    appliesTo: highRiskDeployer,
    title: 'No named, trained overseers for a deployed high-risk system',
    evidence: ['oversight_training'],
    remediation: 'Assign human oversight to named people with the competence, training, authority and support to perform it.',
  },
  // Data governance
  {
    id: 'EUAIA-DG-01', scope: 'organisation', domain: 'data_governance', severity: 'medium',
    article: 'Art. 10', applies_when: 'always (organisation)',
    title: 'No organisation-wide data governance policy for AI',
    evidence: ['data_governance_policy'],
    remediation: 'Adopt a data governance policy covering sourcing, labelling, quality criteria and provenance of data used by AI systems.',
  },
  {
    id: 'EUAIA-DG-02', scope: 'system', domain: 'data_governance', severity: 'critical',
    article: 'Art. 10(2)-(4)', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'Training, validation and test data are not documented',
    evidence: ['training_data_documentation'],
    remediation: 'Document data provenance, collection, preparation and quality checks for training, validation and test sets, and their relevance and representativeness.',
  },
  {
    id: 'EUAIA-DG-03', scope: 'system', domain: 'data_governance', severity: 'high',
    article: 'Art. 10(2)(f)-(g), Art. 10(5)', applies_when: 'high-risk system, or any system that makes decisions about people',
    appliesTo: (s) => highRisk(s) || s.makes_decisions_about_people,
    title: 'Data and outputs have not been examined for bias',
    evidence: ['bias_testing'],
    remediation: 'Examine data and outputs for biases that could affect protected groups, record the results and the mitigations applied, and repeat after material changes.',
  },
  {
    id: 'EUAIA-DG-04', scope: 'system', domain: 'data_governance', severity: 'medium',
    article: 'Art. 26(9)', applies_when: 'system that uses personal data',
    appliesTo: (s) => s.uses_personal_data,
    title: 'No data protection impact assessment for AI processing personal data',
    evidence: ['dpia'],
    remediation: 'Carry out a GDPR Art. 35 DPIA for the system, using the provider\'s instructions for use as input.',
  },
  // Transparency
  {
    id: 'EUAIA-TR-01', scope: 'organisation', domain: 'transparency', severity: 'low',
    article: 'Art. 50', applies_when: 'always (organisation)',
    title: 'No transparency policy for AI interactions and AI-generated content',
    evidence: ['transparency_policy'],
    remediation: 'Adopt a policy stating when and how people are told about AI interactions and how AI-generated content is labelled.',
  },
  {
    id: 'EUAIA-TR-02', scope: 'system', domain: 'transparency', severity: 'high',
    article: 'Art. 50(1)', applies_when: 'system that interacts with people (chatbot category or interacts_with_people)',
    appliesTo: (s) => s.interacts_with_people,
    title: 'People are not told they are interacting with an AI system',
    evidence: ['ai_interaction_disclosure'],
    remediation: 'Tell people clearly, at the latest at first interaction, that they are interacting with an AI system (e.g. a visible notice in the chat window).',
  },
  {
    id: 'EUAIA-TR-03', scope: 'system', domain: 'transparency', severity: 'high',
    article: 'Art. 50(2), Art. 50(4)', applies_when: 'system that generates content (content_generation category or generates_content)',
    appliesTo: (s) => s.generates_content,
    title: 'AI-generated content is not marked as such',
    evidence: ['content_marking'],
    remediation: 'Mark synthetic audio, image, video and text outputs in a machine-readable format (watermark or metadata) and label deep fakes visibly.',
  },
  {
    id: 'EUAIA-TR-04', scope: 'system', domain: 'transparency', severity: 'high',
    article: 'Art. 13', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'No instructions for use for deployers',
    evidence: ['instructions_for_use'],
    remediation: 'Write instructions for use stating capabilities, limitations, accuracy levels, oversight measures and expected lifetime.',
  },
  {
    id: 'EUAIA-TR-05', scope: 'system', domain: 'transparency', severity: 'medium',
    article: 'Art. 26(11), Art. 86', applies_when: 'high-risk system that makes decisions about people',
    appliesTo: (s) => highRisk(s) && s.makes_decisions_about_people,
    title: 'People subject to AI-assisted decisions are not informed',
    evidence: ['affected_person_notice'],
    remediation: 'Inform people that a high-risk AI system is used in decisions about them and explain how to request an explanation of the decision.',
  },
  {
    id: 'EUAIA-TR-06', scope: 'system', domain: 'transparency', severity: 'medium',
    article: 'Art. 26(7)', applies_when: 'high-risk system in the employment category that the tenant deploys',
    appliesTo: (s) => highRiskDeployer(s) && s.category === 'employment',
    title: 'Workers were not informed before AI use at the workplace',
    evidence: ['worker_notice'],
    remediation: 'Inform affected workers and their representatives before putting the system into service at the workplace.',
  },
  // Security (accuracy, robustness, cybersecurity, incidents)
  {
    id: 'EUAIA-SE-01', scope: 'organisation', domain: 'security', severity: 'high',
    article: 'Art. 15(5)', applies_when: 'always (organisation)',
    title: 'No security policy covering AI-specific threats',
    evidence: ['ai_security_policy'],
    remediation: 'Extend the security policy to AI-specific threats: data poisoning, model poisoning, adversarial examples, prompt injection and model exfiltration.',
  },
  {
    id: 'EUAIA-SE-02', scope: 'system', domain: 'security', severity: 'high',
    article: 'Art. 15(1), Art. 15(3)', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'Accuracy is not measured against declared metrics',
    evidence: ['accuracy_metrics'],
    remediation: 'Declare accuracy metrics in the instructions for use and measure them before release and in production.',
  },
  {
    id: 'EUAIA-SE-03', scope: 'system', domain: 'security', severity: 'medium',
    article: 'Art. 15(4)', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'Robustness to errors and faults is not tested',
    evidence: ['robustness_testing'],
    remediation: 'Test behaviour under errors, faults and unexpected inputs; define technical redundancy or fail-safe fallbacks.',
  },
  {
    id: 'EUAIA-SE-04', scope: 'system', domain: 'security', severity: 'critical',
    article: 'Art. 15(5)', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'System was not assessed against AI-specific attacks',
    evidence: ['security_assessment'],
    remediation: 'Assess the system against poisoning, adversarial examples, prompt injection and confidentiality attacks; fix findings before release.',
  },
  {
    id: 'EUAIA-SE-05', scope: 'system', domain: 'security', severity: 'high',
    article: 'Art. 73, Art. 26(5)', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'No procedure for reporting serious incidents',
    evidence: ['serious_incident_procedure'],
    remediation: 'Define how serious incidents are detected, investigated and reported to the authority within the legal deadlines (15 days, or 2 days for widespread incidents).',
  },
  // Technical documentation (documentation, record-keeping, conformity, monitoring)
  {
    id: 'EUAIA-TD-01', scope: 'organisation', domain: 'technical_documentation', severity: 'medium',
    article: 'Art. 18, Art. 19, Art. 26(6)', applies_when: 'always (organisation)',
    title: 'No retention policy for AI documentation and logs',
    evidence: ['records_retention_policy'],
    remediation: 'Keep AI technical documentation for 10 years after market placement and automatically generated logs for at least 6 months.',
  },
  {
    id: 'EUAIA-TD-02', scope: 'system', domain: 'technical_documentation', severity: 'critical',
    article: 'Art. 11 + Annex IV', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'No Annex IV technical documentation',
    evidence: ['technical_documentation'],
    remediation: 'Draw up technical documentation following Annex IV (system description, development process, data, testing, risk management, changes) before market placement.',
  },
  {
    id: 'EUAIA-TD-03', scope: 'system', domain: 'technical_documentation', severity: 'high',
    article: 'Art. 12', applies_when: 'high-risk system',
    appliesTo: highRisk,
    title: 'System events are not logged automatically',
    evidence: ['event_logging'],
    remediation: 'Log system events automatically (periods of use, inputs checked, reference data, persons verifying results) to make operation traceable.',
  },
  {
    id: 'EUAIA-TD-04', scope: 'system', domain: 'technical_documentation', severity: 'high',
    article: 'Art. 43, Art. 47', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'No conformity assessment or EU declaration of conformity',
    evidence: ['conformity_assessment'],
    remediation: 'Complete the applicable conformity assessment procedure, sign the EU declaration of conformity and affix the CE marking.',
  },
  {
    id: 'EUAIA-TD-05', scope: 'system', domain: 'technical_documentation', severity: 'high',
    article: 'Art. 17', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'No quality management system',
    evidence: ['quality_management_system'],
    remediation: 'Document a quality management system covering design control, testing, data management, change management and accountability.',
  },
  {
    id: 'EUAIA-TD-06', scope: 'system', domain: 'technical_documentation', severity: 'medium',
    article: 'Art. 72', applies_when: 'high-risk system the tenant provides',
    appliesTo: highRiskProvider,
    title: 'No post-market monitoring plan',
    evidence: ['post_market_monitoring_plan'],
    remediation: 'Write a post-market monitoring plan that collects and analyses performance data throughout the system lifetime.',
  },
  {
    id: 'EUAIA-TD-07', scope: 'system', domain: 'technical_documentation', severity: 'high',
    article: 'Art. 53(1)', applies_when: 'general_purpose system the tenant provides',
    appliesTo: (s) => s.category === 'general_purpose' && s.is_provider,
    title: 'General-purpose AI model lacks model documentation and training-content summary',
    evidence: ['gpai_model_documentation'],
    remediation: 'Maintain model technical documentation, a copyright policy and a public summary of training content for the general-purpose AI model.',
  },
];
