import { AgentFailure, type Agent, type AgentContext } from '#shared/agents/agent';
import { draftEmail, sendApprovalRequest, type DraftEmailInput } from './draft-email';
import { resolveDraftLead } from './draft-lead';
import { singleLine } from './email-text';
import { enrichLeads, type LeadReference } from './enrich-leads';
import { findLeads } from './find-leads';
import { emailDraftType, enrichedLeadListType, leadListType, pipelineReportType, salesManifest } from './manifest';
import { normaliseProfile, type LeadProfileInput } from './lead-profile';
import { sampleLeadSource, type LeadSource } from './lead-source';
import { buildPipelineReport, type OutreachRecord, type Period } from './pipeline-report';

export { emailDraftType, enrichedLeadListType, leadListType, pipelineReportType } from './manifest';

export interface SalesAgentOptions {
  leadSource: LeadSource;
}

interface FieldError {
  path: string;
  message: string;
}

function fail(message: string, details: FieldError[]): never {
  throw new AgentFailure('malformed_input', message, details);
}

/** Checks what the schema cannot say: a min above max. */
function checkProfile(input: LeadProfileInput): void {
  const range = input.employee_range;
  if (range?.min !== undefined && range.max !== undefined && range.min > range.max) {
    fail('employee_range.min is above employee_range.max.', [{ path: '/employee_range', message: 'min must not exceed max' }]);
  }
}

/** Checks timestamps even if the runtime's validator ignores `format`, and the period's order. */
function checkOutreach(records: readonly OutreachRecord[], period: Period | undefined): void {
  const details: FieldError[] = [];
  records.forEach((r, i) => {
    if (Number.isNaN(Date.parse(r.sent_at))) details.push({ path: `/outreach/${i}/sent_at`, message: 'must be a date-time' });
  });
  for (const key of ['from', 'to'] as const) {
    const value = period?.[key];
    if (value !== undefined && Number.isNaN(Date.parse(value))) details.push({ path: `/period/${key}`, message: 'must be a date-time' });
  }
  if (details.length === 0 && period?.from !== undefined && period.to !== undefined && Date.parse(period.from) > Date.parse(period.to)) {
    details.push({ path: '/period', message: 'from must not be after to' });
  }
  if (details.length > 0) fail('Invalid outreach input.', details);
}

/** Builds the sales agent over a lead source; the catalog uses the bundled sample source. */
export function createSalesAgent(options: SalesAgentOptions): Agent {
  const { leadSource } = options;

  async function runFindLeads(input: LeadProfileInput, context: AgentContext): Promise<void> {
    checkProfile(input);
    const profile = normaliseProfile(input);
    await context.progress('Searching lead source', 0.2);
    const list = await findLeads(profile, leadSource);
    await context.progress(`Scored ${list.total_matched} matching companies`, 0.8);
    await context.emitArtifact(leadListType, { ...list });
  }

  async function runEnrichLeads(input: { leads: LeadReference[] }, context: AgentContext): Promise<void> {
    await context.progress(`Enriching ${input.leads.length} leads`, 0.2);
    const enriched = await enrichLeads(input.leads, leadSource);
    await context.progress(`Enriched ${enriched.total_enriched} leads`, 0.8);
    await context.emitArtifact(enrichedLeadListType, { ...enriched });
  }

  async function runPipelineReport(input: { outreach: OutreachRecord[]; period?: Period }, context: AgentContext): Promise<void> {
    checkOutreach(input.outreach, input.period);
    await context.progress(`Summarising ${input.outreach.length} outreach records`, 0.3);
    const report = buildPipelineReport(input.outreach, input.period);
    await context.emitArtifact(pipelineReportType, { ...report });
  }

  /**
   * Drafts one email and waits for a human. Approved: the service sends the (possibly edited)
   * action; the agent never sends. Denied or expired: the task completes without sending, and the
   * service marks the draft artifact denied or expired (docs/sales-agent.md).
   */
  async function runDraftEmail(input: DraftEmailInput, context: AgentContext): Promise<void> {
    await context.progress('Drafting outreach email', 0.2);
    const lead = await resolveDraftLead(input.lead, leadSource);
    const draft = draftEmail(input, lead);
    await context.emitArtifact(emailDraftType, { ...draft }, { approvalGated: true });
    const decision = await context.requestApproval(sendApprovalRequest(draft));
    const to = typeof decision.action.to === 'string' ? singleLine(decision.action.to) : draft.to;
    if (decision.decision === 'approved') {
      await context.progress(`Approved: email to ${to} sent`, 1);
    } else if (decision.resolution === 'expired') {
      await context.progress(`Approval expired: email to ${to} was not sent`, 1);
    } else {
      await context.progress(`Denied: email to ${to} was not sent`, 1);
    }
  }

  return {
    manifest: salesManifest,
    handlers: {
      'sales.find_leads': runFindLeads,
      'sales.enrich_leads': runEnrichLeads,
      'sales.pipeline_report': runPipelineReport,
      'sales.draft_email': runDraftEmail,
    },
  };
}

/** The sales agent over the bundled fictional data set. */
export const salesAgent: Agent = createSalesAgent({ leadSource: sampleLeadSource });
