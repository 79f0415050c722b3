import type { JsonSchema } from '#shared/agents/agent';
import { systemCategories } from './ai-system';
import { evidenceIds } from './evidence-catalogue';

/** Every schema here is JSON Schema draft 2020-12, like the rest of the agent manifests. */
const draft = 'https://json-schema.org/draft/2020-12/schema';

const evidenceList: JsonSchema = {
  type: 'array',
  items: { type: 'string', enum: [...evidenceIds] },
  uniqueItems: true,
  maxItems: evidenceIds.length,
  description: 'Evidence ids from the catalogue in docs/ai-readiness-rules.md.',
};

const aiSystem: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'category'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    purpose: { type: 'string', maxLength: 2000 },
    category: { type: 'string', enum: [...systemCategories], description: 'Annex III areas make the system high-risk.' },
    role: { type: 'string', enum: ['provider', 'deployer', 'both'], default: 'both' },
    safety_component: { type: 'boolean', default: false },
    interacts_with_people: { type: 'boolean', default: false, description: 'Always true for the chatbot category.' },
    generates_content: { type: 'boolean', default: false, description: 'Always true for the content_generation category.' },
    makes_decisions_about_people: { type: 'boolean', default: false },
    uses_personal_data: { type: 'boolean', default: false },
    public_service: { type: 'boolean', default: false },
    evidence: { ...evidenceList, description: 'Evidence held for this system only.' },
  },
};

const systems: JsonSchema = { type: 'array', maxItems: 100, items: aiSystem };

export const fullAuditInputSchema: JsonSchema = {
  $schema: draft,
  type: 'object',
  additionalProperties: false,
  required: ['scope'],
  properties: {
    scope: { type: 'string', enum: ['full', 'quick'], description: '`quick` evaluates critical and high rules only.' },
    focus_framework: { type: 'string', enum: ['eu_ai_act'] },
    systems,
    evidence: { ...evidenceList, description: 'Evidence held organisation-wide (counts for every system too).' },
    repository: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$',
      description:
        'GitHub repository `owner/name` read as evidence through the agent\'s bound GitHub integration: README, model cards, ' +
        'datasheets, policies, dependency manifests and CI config, at most 25 files and 400,000 bytes. What it shows counts ' +
        'organisation-wide; the report says which file showed what.',
    },
    ref: { type: 'string', minLength: 1, maxLength: 255, description: 'Branch, tag or commit of `repository`; its default branch when absent.' },
  },
  dependentRequired: { ref: ['repository'] },
  examples: [
    {
      scope: 'full',
      focus_framework: 'eu_ai_act',
      systems: [
        { id: 'support-bot', name: 'Customer support chatbot', category: 'chatbot', role: 'deployer', uses_personal_data: true, evidence: ['ai_interaction_disclosure'] },
        { id: 'cv-screener', name: 'CV screening model', category: 'employment', role: 'provider', makes_decisions_about_people: true, uses_personal_data: true, evidence: ['risk_classification_record', 'bias_testing'] },
      ],
      evidence: ['ai_inventory', 'ai_literacy_training', 'ai_governance_policy'],
    },
    {
      scope: 'full',
      repository: 'acme/credit-scoring-model',
      ref: 'main',
      systems: [{ id: 'credit-scorer', name: 'Credit scoring model', category: 'essential_services', role: 'provider', makes_decisions_about_people: true, uses_personal_data: true }],
      evidence: ['ai_inventory'],
    },
  ],
};

export const questionnaireInputSchema: JsonSchema = {
  $schema: draft,
  type: 'object',
  additionalProperties: false,
  required: ['questions'],
  properties: {
    questions: {
      type: 'array',
      minItems: 1,
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'text'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 128 },
          text: { type: 'string', minLength: 1, maxLength: 4000 },
        },
      },
    },
    systems,
    evidence: { ...evidenceList, description: 'Evidence held organisation-wide.' },
  },
  examples: [
    {
      questions: [
        { id: 'Q1', text: 'Do you use customer data to train your AI models?' },
        { id: 'Q2', text: 'Is customer data encrypted at rest and in transit?' },
        { id: 'Q3', text: 'How are your AI systems classified under the EU AI Act?' },
      ],
      evidence: ['no_training_on_customer_data', 'encryption_at_rest', 'encryption_in_transit', 'ai_inventory'],
      systems: [{ id: 'support-bot', name: 'Customer support chatbot', category: 'chatbot' }],
    },
  ],
};
