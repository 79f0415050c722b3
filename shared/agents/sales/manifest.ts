import type { AgentManifest } from '#shared/agents/agent';
import { SALES_AGENT } from '#shared/agents/directory';
import { draftEmailInputSchema, enrichLeadsInputSchema, findLeadsInputSchema, pipelineReportInputSchema } from './input-schemas';

// The sales agent's manifest apart from its handlers: the API's read paths resolve slugs and show
// manifests without bundling the agent's code and sample data (shared/agents/manifests.ts).

export const leadListType = 'sales.lead_list';
export const enrichedLeadListType = 'sales.enriched_lead_list';
export const pipelineReportType = 'sales.pipeline_report';
export const emailDraftType = 'sales.email_draft';

export const salesManifest: AgentManifest = {
  slug: SALES_AGENT.slug,
  aliases: [...SALES_AGENT.aliases],
  name: 'Sales Agent',
  description: 'Finds and scores leads against an ideal-customer profile, enriches them, drafts approval-gated outreach emails, and reports on outreach.',
  version: '1.0.0',
  task_types: [
    {
      task_type: 'sales.find_leads',
      description: 'Find companies matching an ideal-customer profile, scored for fit.',
      input_schema: findLeadsInputSchema,
      artifact_types: [leadListType],
    },
    {
      task_type: 'sales.enrich_leads',
      description: 'Add contacts, tech stack and intent signals to leads by domain.',
      input_schema: enrichLeadsInputSchema,
      artifact_types: [enrichedLeadListType],
    },
    {
      task_type: 'sales.pipeline_report',
      description: 'Open, reply and meeting conversion rates with stage counts and weekly buckets.',
      input_schema: pipelineReportInputSchema,
      artifact_types: [pipelineReportType],
    },
    {
      task_type: 'sales.draft_email',
      description: 'Draft a personalised outreach email; it is sent only after a human approves it.',
      input_schema: draftEmailInputSchema,
      artifact_types: [emailDraftType],
    },
  ],
};
