import { AgentFailure, type Agent, type AgentContext } from '#shared/agents/agent';
import { type AiSystemInput } from './ai-system';
import { answerQuestionnaire, type Question } from './answer-questionnaire';
import { buildAuditReport, collectGaps } from './audit-report';
import type { EvidenceId } from './evidence-catalogue';
import { evaluateRules, type RuleOutcome } from './evaluate-rules';
import { buildGapSummary } from './gap-summary';
import { aiReadinessManifest, auditReportType, gapSummaryType, questionnaireResponseType } from './manifest';
import { readinessDomains, readinessRules } from './readiness-rules';
import { collectRepositoryEvidence } from './repository-evidence';
import { classifySystem, type ClassifiedSystem } from './risk-classification';
import { latestAuditReport, withAuditFindings } from './session-audit';

export interface FullAuditInput {
  scope: 'full' | 'quick';
  focus_framework?: 'eu_ai_act';
  systems?: AiSystemInput[];
  evidence?: EvidenceId[];
  /** GitHub `owner/name` read as evidence through the agent's bound integration. */
  repository?: string;
  /** Branch, tag or commit of `repository`; its default branch when absent. */
  ref?: string;
}

export interface QuestionnaireInput {
  questions: Question[];
  systems?: AiSystemInput[];
  evidence?: EvidenceId[];
}

export { auditReportType, gapSummaryType, questionnaireResponseType } from './manifest';

/** Throws the runtime's `malformed_input` failure when two items share an id (schemas cannot say so). */
function assertUniqueIds(items: readonly { id: string }[], path: string): void {
  const seen = new Set<string>();
  const details: { path: string; message: string }[] = [];
  items.forEach((item, index) => {
    if (seen.has(item.id)) details.push({ path: `${path}/${index}/id`, message: `duplicate id '${item.id}'` });
    seen.add(item.id);
  });
  if (details.length > 0) throw new AgentFailure('malformed_input', `Duplicate ids in ${path}.`, details);
}

function classifyAll(systems: readonly AiSystemInput[], evidence: ReadonlySet<string>): ClassifiedSystem[] {
  assertUniqueIds(systems, '/systems');
  return systems.map((s) => classifySystem(s, evidence));
}

async function runFullAudit(input: FullAuditInput, context: AgentContext): Promise<void> {
  // Read first, so every rule sees what the repository shows; its evidence counts organisation-wide.
  const repositoryEvidence = input.repository ? await collectRepositoryEvidence(input.repository, context, input.ref) : undefined;
  const organisationEvidence = new Set<string>([...(input.evidence ?? []), ...(repositoryEvidence?.evidence ?? []).map((item) => item.evidence_id)]);
  const systems = classifyAll(input.systems ?? [], organisationEvidence);
  const rules = input.scope === 'quick'
    ? readinessRules.filter((r) => r.severity === 'critical' || r.severity === 'high')
    : readinessRules;
  await context.progress(`Classified ${systems.length} AI ${systems.length === 1 ? 'system' : 'systems'}`, 0.1);

  const outcomes: RuleOutcome[] = [];
  for (const [index, domain] of readinessDomains.entries()) {
    outcomes.push(...evaluateRules(rules.filter((r) => r.domain === domain), organisationEvidence, systems));
    await context.progress(`Evaluated ${domain.replace(/_/g, ' ')}`, round2(0.1 + (0.8 * (index + 1)) / readinessDomains.length));
  }

  const report = buildAuditReport(outcomes);
  const summary = buildGapSummary(report, collectGaps(outcomes), systems, input.scope);
  await context.progress('Writing report', 0.95);
  // Which file showed which evidence; the report keeps its five keys when no repository was read.
  await context.emitArtifact(auditReportType, { ...report, ...(repositoryEvidence ? { repository_evidence: repositoryEvidence } : {}) });
  await context.emitArtifact(gapSummaryType, { ...summary });
}

async function runQuestionnaire(input: QuestionnaireInput, context: AgentContext): Promise<void> {
  assertUniqueIds(input.questions, '/questions');
  const organisationEvidence = new Set<string>(input.evidence ?? []);
  const systems = classifyAll(input.systems ?? [], organisationEvidence);
  // A questionnaire speaks for the organisation: evidence held for any system counts.
  const held = new Set<string>(organisationEvidence);
  for (const s of systems) for (const id of s.evidence) held.add(id);
  await context.progress(`Answering ${input.questions.length} questions`, 0.1);
  const answered = answerQuestionnaire(input.questions, held, systems);
  // In a session that ran an audit, the answers draw on its report (session-audit.ts).
  const audit = latestAuditReport(context.session);
  const response = audit ? withAuditFindings(answered, audit) : answered;
  await context.progress('Answers drafted', 0.9);
  await context.emitArtifact(questionnaireResponseType, { ...response });
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export const aiReadinessAgent: Agent = {
  manifest: aiReadinessManifest,
  handlers: {
    'ai_readiness.full_audit': (input: FullAuditInput, context) => runFullAudit(input, context),
    'questionnaire.respond': (input: QuestionnaireInput, context) => runQuestionnaire(input, context),
  },
};
