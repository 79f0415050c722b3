import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { builtInAgents, findAgentBySlug } from '#shared/agents/catalog';

function compiler(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

const taskTypes = builtInAgents.flatMap((agent) =>
  agent.manifest.task_types.map((t) => ({ slug: agent.manifest.slug, ...t })),
);

/** Inputs each schema must reject, keyed by task type. */
const badInputs: Record<string, unknown[]> = {
  'ai_readiness.full_audit': [
    {},
    { scope: 'partial' },
    { scope: 'full', unexpected: true },
    { scope: 'full', focus_framework: 'iso_42001' },
    { scope: 'full', evidence: ['not_in_catalogue'] },
    { scope: 'full', systems: [{ id: 'x', name: 'X', category: 'astrology' }] },
    { scope: 'full', systems: [{ id: 'x', category: 'chatbot' }] },
  ],
  'questionnaire.respond': [
    {},
    { questions: [] },
    { questions: [{ id: 'q1' }] },
    { questions: Array.from({ length: 201 }, (_, i) => ({ id: `q${i}`, text: 'Encrypted?' })) },
    { questions: [{ id: 'q1', text: 'x', extra: 1 }] },
  ],
  'sales.find_leads': [
    { limit: 0 },
    { limit: 101 },
    { limit: 2.5 },
    { countries: ['Germany'] },
    { employee_range: {} },
    { industry: 'fintech' },
  ],
  'sales.enrich_leads': [{}, { leads: [] }, { leads: [{ lead_id: 'x' }] }, { leads: Array.from({ length: 101 }, () => ({ domain: 'a.example' })) }],
  'sales.pipeline_report': [
    {},
    { outreach: [{ sent_at: '2025-01-01T00:00:00Z', opened: true, replied: false }] },
    { outreach: [{ domain: 'a.example', sent_at: 'yesterday', opened: true, replied: false }] },
    { outreach: [{ domain: 'a.example', sent_at: '2025-01-01T00:00:00Z', opened: true }] },
    { outreach: [{ domain: 'a.example', sent_at: '2025-01-01T00:00:00Z', opened: true, replied: false, stage: 'closed' }] },
  ],
  'sales.draft_email': [
    {},
    { lead: { domain: 'a.example' } },
    { product: { name: 'P', value_proposition: 'V' } },
    { lead: {}, product: { name: 'P', value_proposition: 'V' } },
    { lead: { domain: 'a.example', name: 'Ada' }, product: { name: 'P', value_proposition: 'V' } },
    { lead: { name: 'Ada', email: 'not-an-email', company: 'A' }, product: { name: 'P', value_proposition: 'V' } },
    { lead: { domain: 'a.example' }, product: { name: 'P' } },
    { lead: { domain: 'a.example' }, product: { name: 'P', value_proposition: 'V' }, tone: 'rude' },
    { lead: { domain: 'a.example' }, product: { name: 'P', value_proposition: 'V' }, sender: { name: 'S' } },
  ],
};

describe('built-in agent catalog', () => {
  it('resolves canonical slugs and aliases', () => {
    expect(findAgentBySlug('ai-readiness-agent')?.manifest.name).toBe('AI Readiness Agent');
    expect(findAgentBySlug('ai-readiness')).toBe(findAgentBySlug('ai-readiness-agent'));
    expect(findAgentBySlug('sales')?.manifest.name).toBe('Sales Agent');
    expect(findAgentBySlug('marketing')).toBeUndefined();
  });

  it('has exactly one handler per manifest task type', () => {
    for (const agent of builtInAgents) {
      expect(Object.keys(agent.handlers).sort()).toEqual(agent.manifest.task_types.map((t) => t.task_type).sort());
    }
  });

  it('declares the task types and artifact types docs/api.md lists', () => {
    const declared = Object.fromEntries(taskTypes.map((t) => [t.task_type, t.artifact_types]));
    expect(declared).toEqual({
      'ai_readiness.full_audit': ['ai_readiness.audit_report', 'ai_readiness.gap_summary'],
      'questionnaire.respond': ['ai_readiness.questionnaire_response'],
      'sales.find_leads': ['sales.lead_list'],
      'sales.enrich_leads': ['sales.enriched_lead_list'],
      'sales.pipeline_report': ['sales.pipeline_report'],
      'sales.draft_email': ['sales.email_draft'],
    });
  });
});

describe.each(taskTypes)('$task_type input schema', ({ task_type, input_schema }) => {
  it('is draft 2020-12 and compiles in strict mode', () => {
    expect(input_schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(() => compiler().compile(input_schema)).not.toThrow();
  });

  it('accepts its documented examples', () => {
    const validate = compiler().compile(input_schema);
    const examples = input_schema.examples as unknown[];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects malformed input', () => {
    const validate = compiler().compile(input_schema);
    for (const bad of badInputs[task_type]) expect(validate(bad), JSON.stringify(bad)).toBe(false);
  });
});
