import type { AgentManifest } from '#shared/agents/agent';
import { AI_READINESS_AGENT } from '#shared/agents/directory';
import { fullAuditInputSchema, questionnaireInputSchema } from './input-schemas';

// The AI-readiness agent's manifest apart from its handlers: the API's read paths resolve slugs and
// show manifests without bundling the agent's rule set and code (shared/agents/manifests.ts).

export const auditReportType = 'ai_readiness.audit_report';
export const gapSummaryType = 'ai_readiness.gap_summary';
export const questionnaireResponseType = 'ai_readiness.questionnaire_response';

export const aiReadinessManifest: AgentManifest = {
  slug: AI_READINESS_AGENT.slug,
  aliases: [...AI_READINESS_AGENT.aliases],
  name: 'AI Readiness Agent',
  description:
    'Audits the tenant\'s AI systems against an EU AI Act rule set and drafts answers to ' +
    'procurement and security questionnaires from declared evidence.',
  version: '1.0.0',
  task_types: [
    {
      task_type: 'ai_readiness.full_audit',
      description: 'EU AI Act gap audit: domain scores, overall score and prioritised remediation.',
      input_schema: fullAuditInputSchema,
      artifact_types: [auditReportType, gapSummaryType],
    },
    {
      task_type: 'questionnaire.respond',
      description: 'Draft answers to questionnaire questions from the knowledge base and declared evidence.',
      input_schema: questionnaireInputSchema,
      artifact_types: [questionnaireResponseType],
    },
  ],
};
