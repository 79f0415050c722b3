import type { JsonSchema } from '#shared/agents/agent';
import { intentSignalTypes } from './company';
import { emailTones } from './email-templates';
import { pipelineStages } from './pipeline-stages';

/** Every schema here is JSON Schema draft 2020-12, like the rest of the agent manifests. */
const draft = 'https://json-schema.org/draft/2020-12/schema';

const stringList = (maxItems: number, maxLength = 100): JsonSchema => ({
  type: 'array',
  maxItems,
  items: { type: 'string', minLength: 1, maxLength },
});

const domain: JsonSchema = { type: 'string', minLength: 3, maxLength: 253 };

export const findLeadsInputSchema: JsonSchema = {
  $schema: draft,
  type: 'object',
  additionalProperties: false,
  properties: {
    industries: stringList(50),
    countries: { type: 'array', maxItems: 250, items: { type: 'string', pattern: '^[A-Za-z]{2}$' }, description: 'ISO 3166-1 alpha-2 codes.' },
    employee_range: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        min: { type: 'integer', minimum: 1 },
        max: { type: 'integer', minimum: 1 },
      },
    },
    technologies: stringList(50),
    keywords: stringList(50),
    signals: { type: 'array', maxItems: intentSignalTypes.length, uniqueItems: true, items: { type: 'string', enum: [...intentSignalTypes] } },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
  },
  examples: [
    {
      industries: ['fintech', 'insurance'],
      countries: ['DE', 'AT', 'CH', 'SE'],
      employee_range: { min: 50, max: 5000 },
      technologies: ['snowflake', 'openai'],
      keywords: ['credit scoring'],
      limit: 10,
    },
  ],
};

export const enrichLeadsInputSchema: JsonSchema = {
  $schema: draft,
  type: 'object',
  additionalProperties: false,
  required: ['leads'],
  properties: {
    leads: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['domain'],
        // The leads of a `sales.lead_list` as they are (an event trigger maps /artifact/data/leads
        // here): their other fields are known and ignored, anything else is still refused.
        properties: {
          lead_id: { type: 'string', minLength: 1, maxLength: 128 },
          domain,
          company: { type: 'string' },
          industry: { type: 'string' },
          country: { type: 'string' },
          employees: { type: 'number' },
          fit_score: { type: 'number' },
          fit_reasons: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  examples: [{ leads: [{ lead_id: 'crm-1042', domain: 'alderstores.example' }, { domain: 'https://www.unknown-company.example/' }] }],
};

export const pipelineReportInputSchema: JsonSchema = {
  $schema: draft,
  type: 'object',
  additionalProperties: false,
  required: ['outreach'],
  properties: {
    outreach: {
      type: 'array',
      maxItems: 5000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sent_at', 'opened', 'replied'],
        // Each branch names its property so Ajv's strictRequired accepts it; the type lives below.
        anyOf: [
          { properties: { lead_id: true }, required: ['lead_id'] },
          { properties: { domain: true }, required: ['domain'] },
        ],
        properties: {
          lead_id: { type: 'string', minLength: 1, maxLength: 128 },
          domain,
          sent_at: { type: 'string', format: 'date-time' },
          opened: { type: 'boolean' },
          replied: { type: 'boolean' },
          meeting_booked: { type: 'boolean', default: false },
          stage: { type: 'string', enum: [...pipelineStages] },
        },
      },
    },
    period: {
      type: 'object',
      additionalProperties: false,
      properties: {
        from: { type: 'string', format: 'date-time' },
        to: { type: 'string', format: 'date-time' },
      },
    },
  },
  examples: [
    {
      outreach: [
        { lead_id: 'crm-1042', sent_at: '2025-03-03T09:00:00Z', opened: true, replied: true, meeting_booked: true },
        { domain: 'arborlegal.example', sent_at: '2025-03-05T14:30:00Z', opened: true, replied: false },
        { domain: 'alderstores.example', sent_at: '2025-03-11T08:15:00Z', opened: false, replied: false, stage: 'lost' },
      ],
      period: { from: '2025-03-01T00:00:00Z', to: '2025-03-31T23:59:59Z' },
    },
  ],
};

const text = (maxLength: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength });
const email: JsonSchema = { type: 'string', format: 'email', maxLength: 254 };

export const draftEmailInputSchema: JsonSchema = {
  $schema: draft,
  type: 'object',
  additionalProperties: false,
  required: ['lead', 'product'],
  properties: {
    lead: {
      description: 'A company to look up in the lead source (its best contact is addressed), or an explicit person.',
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['domain'],
          properties: { domain },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'email', 'company'],
          properties: {
            name: text(200),
            email,
            company: text(200),
            title: text(200),
            domain: { ...domain, description: "Company domain for facts from the lead source; defaults to the email's domain." },
          },
        },
      ],
    },
    product: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'value_proposition'],
      properties: {
        name: text(200),
        value_proposition: { ...text(1000), description: 'One or two full sentences on what the product does for the lead.' },
        call_to_action: text(500),
      },
    },
    tone: { type: 'string', enum: [...emailTones], default: 'friendly' },
    sender: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'company'],
      properties: {
        name: text(200),
        title: text(200),
        company: text(200),
        email,
      },
    },
    personalization: { ...text(2000), description: 'Notes added verbatim as their own paragraph.' },
  },
  examples: [
    {
      lead: { domain: 'xylomarket.example' },
      product: {
        name: 'Gatehouse AI Readiness Audit',
        value_proposition: 'The audit maps every AI system you run to its EU AI Act obligations in days and ranks the gaps to close first.',
        call_to_action: 'Would a 20-minute walkthrough next week be useful?',
      },
      tone: 'friendly',
      sender: { name: 'Jordan Avery', title: 'Account Executive', company: 'Gatehouse', email: 'jordan.avery@gatehouse.example' },
    },
    {
      lead: { name: 'Ada Moreau', email: 'ada.moreau@newco.example', company: 'NewCo', title: 'Head of Data' },
      product: { name: 'Gatehouse', value_proposition: 'Gatehouse checks every release of your AI features against the EU AI Act, so compliance keeps pace with product.' },
      tone: 'concise',
      personalization: 'We met at the Data Summit in Lyon.',
    },
  ],
};
