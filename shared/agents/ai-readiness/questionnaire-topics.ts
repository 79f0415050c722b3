import type { EvidenceId } from './evidence-catalogue';
import type { ClassifiedSystem } from './risk-classification';

/** A phrase and the points a question earns when it contains the phrase. */
export type Keyword = readonly [phrase: string, weight: number];

/** What a topic's answer templates may use. */
export interface AnswerFacts {
  held: EvidenceId[];
  missing: EvidenceId[];
  systems: readonly ClassifiedSystem[];
}

export interface QuestionnaireTopic {
  id: string;
  title: string;
  /**
   * Phrases are matched as whole normalised words (see normaliseText); a word ending in `*`
   * matches any word that starts with it.
   */
  keywords: readonly Keyword[];
  /** Evidence that backs a full answer on this topic. */
  evidence: readonly EvidenceId[];
  /** The position taken when all evidence is held. */
  affirmative: string;
  /** The position taken when none is held. */
  negative: string;
  /** Optional sentence computed from the tenant's systems. */
  systemsNote?: (facts: AnswerFacts) => string | undefined;
}

function riskClassNote(facts: AnswerFacts): string | undefined {
  if (facts.systems.length === 0) return undefined;
  const parts = facts.systems.map((s) => `${s.name} (${s.id}): ${s.risk_class} risk, ${s.risk_basis}`);
  return `Current classification of our AI systems: ${parts.join('; ')}.`;
}

function disclosureNote(facts: AnswerFacts): string | undefined {
  const concerned = facts.systems.filter((s) => s.interacts_with_people || s.generates_content);
  if (concerned.length === 0) return undefined;
  return `Systems with Art. 50 transparency duties: ${concerned.map((s) => s.id).join(', ')}.`;
}

function oversightNote(facts: AnswerFacts): string | undefined {
  const high = facts.systems.filter((s) => s.risk_class === 'high');
  if (high.length === 0) return undefined;
  return `High-risk systems under Art. 14 oversight requirements: ${high.map((s) => s.id).join(', ')}.`;
}

/** The knowledge base. Order breaks score ties: earlier topics win. */
export const questionnaireTopics: readonly QuestionnaireTopic[] = [
  {
    id: 'customer_data_training',
    title: 'Use of customer data for model training',
    keywords: [['train on', 3], ['used to train', 3], ['use to train', 3], ['train your model', 3], ['train model', 3], ['model training', 3], ['fine tune', 3], ['customer data', 2], ['our data', 2], ['your data', 1], ['improve your model', 3]],
    evidence: ['no_training_on_customer_data'],
    affirmative: 'Customer data is not used to train or fine-tune any AI model; this is a contractual commitment enforced by technical separation.',
    negative: 'We cannot yet evidence a commitment that customer data is excluded from model training.',
  },
  {
    id: 'data_retention',
    title: 'Data retention and deletion',
    keywords: [['retention', 3], ['retain*', 3], ['how long', 2], ['delet*', 3], ['erase', 2], ['data lifecycle', 2], ['kept', 1], ['store', 1]],
    evidence: ['data_retention_policy', 'records_retention_policy'],
    affirmative: 'Customer data is kept only for defined retention periods and deleted on expiry or on request; AI documentation and logs are retained as the EU AI Act requires.',
    negative: 'We do not yet hold a documented retention and deletion policy covering customer data and AI records.',
  },
  {
    id: 'encryption',
    title: 'Encryption',
    keywords: [['encrypt*', 3], ['tls', 3], ['at rest', 2], ['in transit', 2], ['aes', 2], ['kms', 2], ['key management', 2]],
    evidence: ['encryption_at_rest', 'encryption_in_transit'],
    affirmative: 'Data is encrypted at rest with managed keys and in transit with TLS 1.2 or later.',
    negative: 'We cannot evidence encryption at rest and in transit from the documents on file.',
  },
  {
    id: 'access_control',
    title: 'Access control',
    keywords: [['access control', 3], ['least privilege', 3], ['mfa', 3], ['multi factor', 3], ['two factor', 3], ['sso', 2], ['single sign on', 2], ['rbac', 3], ['role based', 2], ['who can access', 3], ['permission', 2], ['access review', 3]],
    evidence: ['access_control_policy'],
    affirmative: 'Access follows least privilege with role-based permissions, MFA and periodic access reviews.',
    negative: 'We do not yet hold a documented access control policy.',
  },
  {
    id: 'incident_response',
    title: 'Incident response and notification',
    keywords: [['incident', 3], ['breach', 3], ['incident response', 2], ['notif*', 2], ['serious incident', 2]],
    evidence: ['incident_response_plan', 'serious_incident_procedure'],
    affirmative: 'A documented incident response plan defines detection, investigation and customer notification timelines, and serious AI incidents are reported to the authority as Art. 73 requires.',
    negative: 'We cannot evidence an incident response plan or an AI serious-incident reporting procedure.',
  },
  {
    id: 'subprocessors',
    title: 'Sub-processors and third parties',
    keywords: [['sub processor', 3], ['subprocessor', 3], ['third party', 2], ['vendor', 2], ['model provider', 3], ['hosting provider', 2], ['supplier', 2], ['outsourc*', 1]],
    evidence: ['subprocessor_list'],
    affirmative: 'We publish a list of sub-processors, including AI model providers, and notify customers of changes.',
    negative: 'We do not yet hold a published sub-processor list.',
  },
  {
    id: 'bias_testing',
    title: 'Bias and fairness testing',
    keywords: [['bias*', 3], ['fairness', 3], ['fair', 1], ['discriminat*', 3], ['protected characteristic', 3], ['protected group', 3]],
    evidence: ['bias_testing'],
    affirmative: 'Data and outputs are examined for biases affecting protected groups, with results and mitigations recorded (EU AI Act Art. 10(2)(f)).',
    negative: 'We cannot yet evidence a bias examination of our AI systems.',
  },
  {
    id: 'logging',
    title: 'Logging and audit trail',
    keywords: [['log', 3], ['logging', 3], ['logged', 3], ['audit trail', 3], ['record keeping', 3], ['traceability', 3], ['traceable', 2]],
    evidence: ['event_logging', 'records_retention_policy'],
    affirmative: 'AI system events are logged automatically for traceability (EU AI Act Art. 12) and logs are retained for at least six months.',
    negative: 'We cannot evidence automatic event logging and log retention for our AI systems.',
  },
  {
    id: 'human_oversight',
    title: 'Human oversight',
    keywords: [['human oversight', 3], ['oversight', 2], ['human in the loop', 3], ['human review', 3], ['manual review', 2], ['override', 2], ['intervene', 2], ['stop the system', 2]],
    evidence: ['human_oversight_procedure', 'override_mechanism'],
    affirmative: 'Named people oversee our AI systems under a documented procedure and can override or stop any output (EU AI Act Art. 14).',
    negative: 'We cannot yet evidence a human oversight procedure with an override mechanism.',
    systemsNote: oversightNote,
  },
  {
    id: 'eu_ai_act_risk_class',
    title: 'EU AI Act risk classification',
    keywords: [['eu ai act', 3], ['ai act', 3], ['risk class', 3], ['risk classification', 3], ['risk category', 3], ['high risk', 3], ['annex iii', 3], ['classified', 1], ['classify', 1]],
    evidence: ['ai_inventory', 'risk_classification_record'],
    affirmative: 'We keep an inventory of our AI systems, each with a documented EU AI Act risk classification.',
    negative: 'We have not yet documented an inventory and risk classification of our AI systems.',
    systemsNote: riskClassNote,
  },
  {
    id: 'transparency',
    title: 'Transparency and AI disclosure',
    keywords: [['disclos*', 2], ['interacting with an ai', 3], ['aware', 1], ['chatbot', 2], ['watermark', 3], ['label*', 2], ['ai generated', 3], ['synthetic', 2], ['deep fake', 3], ['deepfake', 3], ['transparen*', 2]],
    evidence: ['ai_interaction_disclosure', 'content_marking', 'transparency_policy'],
    affirmative: 'People are told when they interact with AI, and AI-generated content is marked in machine-readable form (EU AI Act Art. 50).',
    negative: 'We cannot yet evidence AI interaction disclosure or marking of AI-generated content.',
    systemsNote: disclosureNote,
  },
  {
    id: 'security_testing',
    title: 'Security testing',
    keywords: [['penetration test', 3], ['pen test', 3], ['pentest', 3], ['vulnerabilit*', 2], ['adversarial', 3], ['red team', 3], ['prompt injection', 3], ['security testing', 3], ['security assessment', 3], ['cybersecurity', 2]],
    evidence: ['penetration_test', 'security_assessment', 'ai_security_policy'],
    affirmative: 'Systems undergo an independent penetration test yearly and AI-specific security assessments (poisoning, adversarial inputs, prompt injection) under our AI security policy.',
    negative: 'We cannot yet evidence penetration testing or AI-specific security assessments.',
  },
  {
    id: 'data_governance',
    title: 'Training data governance',
    keywords: [['training data', 3], ['data quality', 3], ['data provenance', 3], ['provenance', 2], ['data source', 2], ['dataset', 2], ['data governance', 3], ['label*', 2]],
    evidence: ['data_governance_policy', 'training_data_documentation'],
    affirmative: 'Data used by our AI systems follows a data governance policy; provenance, preparation and quality checks of training, validation and test data are documented (EU AI Act Art. 10).',
    negative: 'We cannot yet evidence data governance or documentation of training data.',
  },
  {
    id: 'accuracy_robustness',
    title: 'Accuracy and robustness',
    keywords: [['accura*', 3], ['performance metric', 3], ['robust*', 3], ['error rate', 3], ['hallucinat*', 3], ['evaluation', 2], ['reliab*', 2]],
    evidence: ['accuracy_metrics', 'robustness_testing'],
    affirmative: 'Accuracy is measured against declared metrics and robustness is tested against errors and unexpected inputs (EU AI Act Art. 15).',
    negative: 'We cannot yet evidence accuracy metrics or robustness testing.',
  },
  {
    id: 'risk_management',
    title: 'Risk and impact assessment',
    keywords: [['risk management', 3], ['risk assessment', 3], ['impact assessment', 3], ['fria', 3], ['dpia', 3], ['fundamental rights', 3], ['privacy impact', 3]],
    evidence: ['risk_management_system', 'dpia', 'fundamental_rights_impact_assessment'],
    affirmative: 'AI risks are managed through a documented risk management process, with DPIAs and fundamental rights impact assessments where required.',
    negative: 'We cannot yet evidence a risk management process or impact assessments for our AI systems.',
  },
  {
    id: 'governance',
    title: 'AI governance and accountability',
    keywords: [['governance', 2], ['accountable', 3], ['accountability', 3], ['responsible ai', 3], ['ai policy', 3], ['ai ethics', 3], ['owner', 1], ['literacy', 3], ['staff training', 3], ['employee training', 3], ['prohibited', 2]],
    evidence: ['ai_governance_policy', 'ai_literacy_training', 'prohibited_practices_screening'],
    affirmative: 'An AI governance policy names accountable owners, staff receive AI literacy training, and every AI use is screened against prohibited practices.',
    negative: 'We cannot yet evidence an AI governance policy, AI literacy training or prohibited-practices screening.',
  },
  {
    id: 'documentation_conformity',
    title: 'Technical documentation and conformity',
    keywords: [['technical documentation', 3], ['documentation', 2], ['model card', 3], ['conformity', 3], ['ce marking', 3], ['declaration of conformity', 3], ['quality management', 3], ['iso 42001', 3]],
    evidence: ['technical_documentation', 'conformity_assessment', 'quality_management_system'],
    affirmative: 'Technical documentation follows Annex IV, conformity is assessed where required, and a quality management system governs changes.',
    negative: 'We cannot yet evidence technical documentation, conformity assessment or a quality management system.',
  },
  {
    id: 'monitoring',
    title: 'Post-market monitoring',
    keywords: [['monitor*', 3], ['drift', 3], ['post market', 3], ['production performance', 3]],
    evidence: ['post_market_monitoring_plan'],
    affirmative: 'AI systems are monitored in production under a post-market monitoring plan that tracks performance and drift.',
    negative: 'We cannot yet evidence a post-market monitoring plan.',
  },
];
