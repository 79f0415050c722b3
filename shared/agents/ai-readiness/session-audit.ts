import type { SessionView } from '#shared/agents/agent';
import type { QuestionnaireResponse } from './answer-questionnaire';
import type { AuditReport } from './audit-report';
import { auditReportType } from './manifest';
import { questionnaireTopics } from './questionnaire-topics';

/** The latest audit report among the session's artifacts, if the session ran an audit. */
export function latestAuditReport(session: SessionView | undefined): { artifact_id: string; report: AuditReport } | undefined {
  const reports = (session?.artifacts ?? []).filter((artifact) => artifact.type === auditReportType);
  const latest = reports.at(-1);
  return latest ? { artifact_id: latest.artifact_id, report: latest.data as unknown as AuditReport } : undefined;
}

const topicEvidence = new Map(questionnaireTopics.map((topic) => [topic.id, new Set<string>(topic.evidence)]));

/**
 * A questionnaire answered in a session draws on the session's audit: an answer whose topic
 * needs evidence the audit found missing cites those gaps and is flagged for review, so what the
 * organisation tells a customer never contradicts its own audit. The response names the report.
 */
export function withAuditFindings(response: QuestionnaireResponse, audit: { artifact_id: string; report: AuditReport }): QuestionnaireResponse & { audit_report_id: string } {
  const recommendations = Array.isArray(audit.report.recommendations) ? audit.report.recommendations : [];
  const answers = response.answers.map((answer) => {
    const evidence = answer.topic ? topicEvidence.get(answer.topic) : undefined;
    if (!evidence) return answer;
    const gaps = recommendations.filter((recommendation) => (recommendation.evidence_missing ?? []).some((id) => evidence.has(id)));
    if (gaps.length === 0) return answer;
    const cited = gaps.map((gap) => gap.gap.split(' (')[0]).join('; ');
    return { ...answer, answer: `${answer.answer} The audit of this session (${audit.artifact_id}) found gaps here: ${cited}.`, needs_review: true, audit_gaps: gaps.map((gap) => gap.gap) };
  });
  return { ...response, answers, audit_report_id: audit.artifact_id };
}
