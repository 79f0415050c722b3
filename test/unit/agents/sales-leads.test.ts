import { describe, expect, it } from 'vitest';
import { AgentFailure } from '#shared/agents/agent';
import type { Company } from '#shared/agents/sales/company';
import type { EnrichedLeadList } from '#shared/agents/sales/enrich-leads';
import type { LeadList } from '#shared/agents/sales/find-leads';
import { leadIdFor } from '#shared/agents/sales/lead-id';
import { createStaticLeadSource, normaliseDomain } from '#shared/agents/sales/lead-source';
import { createSalesAgent } from '#shared/agents/sales/sales-agent';
import { sampleCompanies } from '#shared/agents/sales/sample-leads';
import { RecordingContext } from './recording-context';
import { runTask } from './run-task';

const findLeads = async (input: unknown) =>
  (await runTask('sales', 'sales.find_leads', input)).artifact<LeadList>('sales.lead_list');
const enrich = async (input: unknown) =>
  (await runTask('sales', 'sales.enrich_leads', input)).artifact<EnrichedLeadList>('sales.enriched_lead_list');

function company(overrides: Partial<Company> & Pick<Company, 'domain' | 'name'>): Company {
  return {
    industry: 'fintech',
    country: 'DE',
    city: 'Berlin',
    employees: 200,
    founded: 2015,
    description: 'Credit scoring platform for lenders.',
    technologies: ['aws', 'snowflake'],
    contacts: [],
    signals: [],
    ...overrides,
  };
}

/** Runs a task of a sales agent built over `companies`, showing the source is pluggable. */
async function runOver(companies: Company[], taskType: string, input: unknown): Promise<RecordingContext> {
  const agent = createSalesAgent({ leadSource: createStaticLeadSource(companies) });
  const context = new RecordingContext();
  await agent.handlers[taskType](input, context);
  return context;
}

describe('sample lead data set', () => {
  it('holds about sixty fictional companies on unique .example domains', () => {
    const domains = sampleCompanies.map((c) => c.domain);
    expect(sampleCompanies.length).toBeGreaterThanOrEqual(55);
    expect(new Set(domains).size).toBe(domains.length);
    for (const c of sampleCompanies) {
      expect(c.domain).toMatch(/^[a-z0-9-]+\.example$/);
      expect(c.domain).toBe(normaliseDomain(c.domain));
      for (const contact of c.contacts) expect(contact.email.endsWith(`@${c.domain}`)).toBe(true);
    }
  });
});

describe('sales.find_leads', () => {
  it('returns only companies inside the profile, best fit first, within the limit', async () => {
    const profile = { industries: ['Fintech', 'insurance'], countries: ['se', 'IT', 'AT', 'BE', 'US'], employee_range: { min: 20, max: 5000 }, limit: 3 };

    const list = await findLeads(profile);

    expect(list.leads.length).toBeLessThanOrEqual(3);
    expect(list.leads.length).toBeGreaterThan(0);
    expect(list.total_matched).toBeGreaterThanOrEqual(list.leads.length);
    for (const lead of list.leads) {
      expect(['fintech', 'insurance']).toContain(lead.industry);
      expect(['SE', 'IT', 'AT', 'BE', 'US']).toContain(lead.country);
      expect(lead.employees).toBeGreaterThanOrEqual(20);
      expect(lead.employees).toBeLessThanOrEqual(5000);
      expect(lead.lead_id).toBe(leadIdFor(lead.domain));
    }
    for (let i = 1; i < list.leads.length; i += 1) {
      const [a, b] = [list.leads[i - 1], list.leads[i]];
      expect(a.fit_score > b.fit_score || (a.fit_score === b.fit_score && a.company <= b.company)).toBe(true);
    }
    expect(list.profile).toMatchObject({ industries: ['fintech', 'insurance'], countries: ['SE', 'IT', 'AT', 'BE', 'US'], limit: 3 });
  });

  it('applies the default limit of 25 and counts every match', async () => {
    const list = await findLeads({});

    expect(list.leads).toHaveLength(25);
    expect(list.total_matched).toBe(sampleCompanies.length);
    expect(list.profile.limit).toBe(25);
  });

  it('scores fit with the documented weights', async () => {
    const companies = [
      company({ domain: 'a.example', name: 'Alpha', signals: [{ type: 'hiring', description: 'Hiring 3 data engineers', observed_on: '2025-02-01' }] }),
      company({ domain: 'b.example', name: 'Bravo', industry: 'retail' }),
      company({ domain: 'c.example', name: 'Charlie', technologies: ['gcp'], description: 'Payments.' }),
      company({ domain: 'd.example', name: 'Delta', employees: 20 }),
    ];
    const profile = {
      industries: ['fintech'],
      countries: ['DE'],
      employee_range: { min: 50, max: 500 },
      technologies: ['snowflake', 'openai'],
      keywords: ['credit scoring', 'fraud'],
    };

    const list = (await runOver(companies, 'sales.find_leads', profile)).artifact<LeadList>('sales.lead_list');

    // Alpha: 30 + 15 + 20 + 20 × 1/2 + 15 × 1/2 + 10 × 1/2 = 87.5 of 110 → 79.5 → 80.
    // Bravo fails the industry filter, Delta the size filter, Charlie matches no technology or keyword.
    expect(list.total_matched).toBe(1);
    expect(list.leads).toEqual([
      {
        lead_id: leadIdFor('a.example'),
        company: 'Alpha',
        domain: 'a.example',
        industry: 'fintech',
        country: 'DE',
        employees: 200,
        fit_score: 80,
        fit_reasons: [
          'industry fintech',
          'based in DE',
          '200 employees, within the requested range',
          'uses snowflake (1 of 2 technologies)',
          'mentions "credit scoring"',
          'intent: Hiring 3 data engineers',
        ],
      },
    ]);
  });

  it('breaks score ties by company name', async () => {
    const companies = [company({ domain: 'z.example', name: 'Zulu' }), company({ domain: 'y.example', name: 'Yankee' })];

    const list = (await runOver(companies, 'sales.find_leads', { industries: ['fintech'] })).artifact<LeadList>('sales.lead_list');

    expect(list.leads.map((l) => [l.company, l.fit_score])).toEqual([['Yankee', 75], ['Zulu', 75]]);
  });

  it('is deterministic', async () => {
    const profile = { technologies: ['openai', 'python'], keywords: ['compliance'], limit: 50 };

    expect(await findLeads(profile)).toEqual(await findLeads(profile));
  });

  it('fails with malformed_input when the employee range is inverted', async () => {
    await expect(findLeads({ employee_range: { min: 500, max: 50 } })).rejects.toMatchObject({
      constructor: AgentFailure,
      code: 'malformed_input',
    });
  });
});

describe('sales.enrich_leads', () => {
  it('enriches known domains and lists unknown ones', async () => {
    const known = sampleCompanies[0];

    const data = await enrich({
      leads: [
        { lead_id: 'crm-1', domain: `https://www.${known.domain.toUpperCase()}/about` },
        { domain: 'nobody-here.example' },
        { lead_id: 'crm-dup', domain: known.domain },
      ],
    });

    expect(data.total_requested).toBe(2);
    expect(data.total_enriched).toBe(1);
    expect(data.not_found).toEqual([{ lead_id: leadIdFor('nobody-here.example'), domain: 'nobody-here.example' }]);
    expect(data.leads).toHaveLength(1);
    const lead = data.leads[0];
    expect(lead).toMatchObject({ lead_id: 'crm-1', domain: known.domain, company: known.name, employees: known.employees });
    expect(lead.tech_stack).toEqual([...known.technologies].sort());
    expect(lead.contacts).toHaveLength(known.contacts.length);
    expect(lead.intent_signals).toHaveLength(known.signals.length);
  });

  it('orders contacts by seniority and scores intent once per signal type', async () => {
    const companies = [
      company({
        domain: 'a.example',
        name: 'Alpha',
        contacts: [
          { name: 'Ida Berg', title: 'ML Engineer', email: 'ida@a.example', department: 'data', seniority: 'individual' },
          { name: 'Omar Aziz', title: 'CTO', email: 'omar@a.example', department: 'engineering', seniority: 'c_level' },
        ],
        signals: [
          { type: 'hiring', description: 'Hiring 2 engineers', observed_on: '2025-01-10' },
          { type: 'hiring', description: 'Hiring a DPO', observed_on: '2025-03-01' },
          { type: 'funding', description: 'Raised a Series A', observed_on: '2025-02-01' },
        ],
      }),
    ];

    const context = await runOver(companies, 'sales.enrich_leads', { leads: [{ domain: 'a.example' }] });
    const lead = context.artifact<EnrichedLeadList>('sales.enriched_lead_list').leads[0];

    expect(lead.contacts.map((c) => c.name)).toEqual(['Omar Aziz', 'Ida Berg']);
    expect(lead.intent_signals.map((s) => s.observed_on)).toEqual(['2025-03-01', '2025-02-01', '2025-01-10']);
    expect(lead.intent_score).toBe(25 + 30);
  });

  it('reports every lead as not found when the source knows none', async () => {
    const context = await runOver([], 'sales.enrich_leads', { leads: [{ lead_id: 'x', domain: 'a.example' }] });

    expect(context.artifact('sales.enriched_lead_list')).toEqual({
      leads: [],
      not_found: [{ lead_id: 'x', domain: 'a.example' }],
      total_requested: 1,
      total_enriched: 0,
    });
  });
});
