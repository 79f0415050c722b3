/**
 * The catalogue of evidence a tenant can declare. Inputs name evidence by these ids only (the
 * input schemas enumerate them), so a typo is rejected as malformed input instead of silently
 * counting as missing evidence.
 */
export interface EvidenceItem {
  id: string;
  title: string;
  /** What a document must show to count as this evidence. */
  description: string;
}

export const evidenceCatalogue = [
  // Organisation level
  { id: 'ai_inventory', title: 'AI system inventory', description: 'Register of every AI system developed or used, with owner, purpose and risk class.' },
  { id: 'prohibited_practices_screening', title: 'Prohibited-practices screening', description: 'Record that every AI use was screened against the Art. 5 prohibited practices.' },
  { id: 'ai_literacy_training', title: 'AI literacy programme', description: 'Training records showing staff who build or operate AI have sufficient AI literacy.' },
  { id: 'ai_governance_policy', title: 'AI governance policy', description: 'Policy naming accountable owners, approval steps and escalation for AI systems.' },
  { id: 'data_governance_policy', title: 'AI data governance policy', description: 'Organisation-wide rules for sourcing, labelling, quality and provenance of AI data.' },
  { id: 'transparency_policy', title: 'AI transparency policy', description: 'Policy on disclosing AI interactions and labelling AI-generated content.' },
  { id: 'ai_security_policy', title: 'AI security policy', description: 'Security policy covering AI-specific threats: data poisoning, prompt injection, model evasion.' },
  { id: 'records_retention_policy', title: 'AI records retention policy', description: 'Policy keeping AI documentation (10 years) and automatically generated logs (at least 6 months).' },
  // System level
  { id: 'risk_classification_record', title: 'Risk classification record', description: 'Documented Art. 6 / Annex III classification of the system, with reasoning.' },
  { id: 'risk_management_system', title: 'Risk management system', description: 'Continuous, documented risk identification, evaluation and mitigation for the system.' },
  { id: 'fundamental_rights_impact_assessment', title: 'Fundamental rights impact assessment', description: 'FRIA completed before first use of the system.' },
  { id: 'eu_database_registration', title: 'EU database registration', description: 'Registration of the system in the EU database for high-risk AI systems.' },
  { id: 'human_oversight_procedure', title: 'Human oversight procedure', description: 'Procedure defining who oversees the system, what they check and when they intervene.' },
  { id: 'override_mechanism', title: 'Override and stop mechanism', description: 'Tested means for an operator to disregard, reverse or stop the system output.' },
  { id: 'oversight_training', title: 'Oversight staff assignment', description: 'Named overseers with the competence, training and authority for their role.' },
  { id: 'training_data_documentation', title: 'Training data documentation', description: 'Provenance, collection, labelling and quality checks for training, validation and test data.' },
  { id: 'bias_testing', title: 'Bias examination', description: 'Results of examining data and outputs for biases affecting protected groups, with mitigations.' },
  { id: 'dpia', title: 'Data protection impact assessment', description: 'GDPR Art. 35 DPIA covering the personal data the system processes.' },
  { id: 'ai_interaction_disclosure', title: 'AI interaction disclosure', description: 'Evidence that people are told they are interacting with an AI system.' },
  { id: 'content_marking', title: 'AI content marking', description: 'Machine-readable marking (watermark or metadata) of AI-generated or manipulated content.' },
  { id: 'instructions_for_use', title: 'Instructions for use', description: 'Instructions for deployers: capabilities, limitations, accuracy, oversight measures.' },
  { id: 'affected_person_notice', title: 'Affected-person notice', description: 'Notice telling people that a high-risk AI system is used in decisions about them, and how to obtain an explanation.' },
  { id: 'worker_notice', title: 'Worker information', description: 'Information given to workers and their representatives before an AI system is used at work.' },
  { id: 'accuracy_metrics', title: 'Accuracy metrics', description: 'Declared accuracy metrics and measured levels for the system.' },
  { id: 'robustness_testing', title: 'Robustness testing', description: 'Tests of resilience to errors, faults and inconsistencies, with fallback plans.' },
  { id: 'security_assessment', title: 'AI security assessment', description: 'Assessment of the system against AI-specific attacks (poisoning, adversarial examples, prompt injection).' },
  { id: 'serious_incident_procedure', title: 'Serious incident procedure', description: 'Procedure to detect, investigate and report serious incidents to the market surveillance authority.' },
  { id: 'technical_documentation', title: 'Technical documentation', description: 'Annex IV technical documentation of the system.' },
  { id: 'event_logging', title: 'Automatic event logging', description: 'Automatic logs of system events enabling traceability over its lifetime.' },
  { id: 'conformity_assessment', title: 'Conformity assessment', description: 'Completed conformity assessment and signed EU declaration of conformity.' },
  { id: 'quality_management_system', title: 'Quality management system', description: 'Documented quality management system covering design, testing and change control.' },
  { id: 'post_market_monitoring_plan', title: 'Post-market monitoring plan', description: 'Plan collecting and analysing performance data over the system lifetime.' },
  { id: 'gpai_model_documentation', title: 'GPAI model documentation', description: 'Model technical documentation, copyright policy and public training-content summary.' },
  // Used by questionnaire answers only (general security and privacy posture)
  { id: 'data_retention_policy', title: 'Data retention policy', description: 'Retention periods and deletion procedure for customer data.' },
  { id: 'encryption_at_rest', title: 'Encryption at rest', description: 'Customer data encrypted at rest with managed keys.' },
  { id: 'encryption_in_transit', title: 'Encryption in transit', description: 'All traffic encrypted in transit with TLS 1.2 or later.' },
  { id: 'access_control_policy', title: 'Access control policy', description: 'Least-privilege, role-based access with MFA and periodic access reviews.' },
  { id: 'subprocessor_list', title: 'Sub-processor list', description: 'Published list of sub-processors, including AI model providers.' },
  { id: 'no_training_on_customer_data', title: 'Customer-data training exclusion', description: 'Contractual and technical commitment that customer data is not used to train models.' },
  { id: 'penetration_test', title: 'Penetration test report', description: 'Independent penetration test within the last 12 months.' },
  { id: 'incident_response_plan', title: 'Incident response plan', description: 'Security incident response plan with customer notification timelines.' },
] as const satisfies readonly EvidenceItem[];

export type EvidenceId = (typeof evidenceCatalogue)[number]['id'];

export const evidenceIds: readonly EvidenceId[] = evidenceCatalogue.map((item) => item.id);

const titles = new Map<string, string>(evidenceCatalogue.map((item) => [item.id, item.title]));

/** Human title of an evidence id (the id itself for an unknown one). */
export function evidenceTitle(id: string): string {
  return titles.get(id) ?? id;
}
