import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentFailure } from '#shared/agents/agent';
import type { AuditReport } from '#shared/agents/ai-readiness/audit-report';
import { evidenceIds } from '#shared/agents/ai-readiness/evidence-catalogue';
import type { GapSummary } from '#shared/agents/ai-readiness/gap-summary';
import { readinessDomains, readinessRules } from '#shared/agents/ai-readiness/readiness-rules';
import { runTask } from './run-task';

const audit = (input: unknown) => runTask('ai-readiness', 'ai_readiness.full_audit', input);
const reportOf = async (input: unknown) => (await audit(input)).artifact<AuditReport>('ai_readiness.audit_report');

const chatbot = { id: 'support-bot', name: 'Support bot', category: 'chatbot' };
const cvScreener = {
  id: 'cv-screener',
  name: 'CV screener',
  category: 'employment',
  role: 'both',
  makes_decisions_about_people: true,
  uses_personal_data: true,
  public_service: true,
};

describe('rule table', () => {
  it('has unique ids, cites an article for every rule, and covers all six domains', () => {
    const ids = readinessRules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(readinessRules.length).toBeGreaterThanOrEqual(20);
    for (const rule of readinessRules) {
      expect(rule.article).toMatch(/^Art\. \d+/);
      expect(rule.evidence.length).toBeGreaterThan(0);
      for (const id of rule.evidence) expect(evidenceIds).toContain(id);
      expect(rule.id.startsWith(`EUAIA-${{ risk_classification: 'RC', human_oversight: 'HO', data_governance: 'DG', transparency: 'TR', security: 'SE', technical_documentation: 'TD' }[rule.domain]}-`)).toBe(true);
    }
    expect(new Set(readinessRules.map((r) => r.domain))).toEqual(new Set(readinessDomains));
    for (const domain of readinessDomains) {
      expect(readinessRules.some((r) => r.domain === domain && r.scope === 'organisation')).toBe(true);
    }
  });

  it('is documented rule by rule, and every catalogued evidence id is documented', () => {
    const doc = readFileSync(new URL('../../../docs/ai-readiness-rules.md', import.meta.url), 'utf8');
    for (const rule of readinessRules) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${rule.id} |`));
      expect(row, rule.id).toBeDefined();
      expect(row).toContain(`| ${rule.severity} |`);
      expect(row).toContain(rule.article);
      for (const id of rule.evidence) expect(row).toContain(`\`${id}\``);
    }
    for (const id of evidenceIds) expect(doc).toContain(`| \`${id}\` |`);
  });
});

describe('ai_readiness.full_audit', () => {
  it('emits the audit report then the gap summary, after progress reports', async () => {
    const context = await audit({ scope: 'full', systems: [chatbot] });

    expect(context.artifacts.map((a) => a.type)).toEqual(['ai_readiness.audit_report', 'ai_readiness.gap_summary']);
    const fractions = context.progressCalls.map((p) => p.progress);
    expect(fractions.length).toBeGreaterThanOrEqual(6);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    for (const f of fractions) expect(f).toBeGreaterThanOrEqual(0);
    for (const f of fractions) expect(f).toBeLessThanOrEqual(1);
  });

  it('gives an audit report with exactly the specified shape', async () => {
    const report = await reportOf({ scope: 'full', systems: [chatbot, cvScreener], evidence: ['ai_inventory'] });

    expect(Object.keys(report).sort()).toEqual(['critical', 'domains', 'eu_ai_act_score', 'gaps_found', 'recommendations']);
    expect(Object.keys(report.domains).sort()).toEqual([...readinessDomains].sort());
    for (const value of [report.gaps_found, report.critical, report.eu_ai_act_score, ...Object.values(report.domains)]) {
      expect(Number.isInteger(value)).toBe(true);
    }
    for (const score of [report.eu_ai_act_score, ...Object.values(report.domains)]) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
    }
    expect(report.gaps_found).toBe(report.recommendations.length);
    expect(report.critical).toBe(report.recommendations.filter((r) => r.severity === 'critical').length);
    for (const r of report.recommendations) {
      expect(Object.keys(r).sort()).toEqual(['evidence_missing', 'gap', 'remediation', 'severity']);
      expect(r.evidence_missing.length).toBeGreaterThan(0);
    }
  });

  it('orders recommendations by severity, then rule id', async () => {
    const report = await reportOf({ scope: 'full', systems: [chatbot, cvScreener] });

    const rank = { critical: 0, high: 1, medium: 2, low: 3 };
    const keys = report.recommendations.map((r) => [rank[r.severity], r.gap.split(' ')[0]] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(keys).toEqual(sorted);
  });

  it('is deterministic: the same input gives the same calls and artifacts', async () => {
    const input = { scope: 'full', systems: [chatbot, cvScreener], evidence: ['ai_inventory', 'bias_testing'] };

    const first = await audit(input);
    const second = await audit(input);

    expect(second.artifacts).toEqual(first.artifacts);
    expect(second.progressCalls).toEqual(first.progressCalls);
  });

  it('scores a tenant who declares nothing low, with critical gaps, instead of failing', async () => {
    const report = await reportOf({ scope: 'full' });

    expect(report.eu_ai_act_score).toBe(0);
    expect(report.critical).toBeGreaterThan(0);
    expect(report.recommendations.map((r) => r.gap.split(' ')[0])).toEqual(
      expect.arrayContaining(['EUAIA-RC-01', 'EUAIA-RC-02', 'EUAIA-HO-01']),
    );
    for (const score of Object.values(report.domains)) expect(score).toBe(0);
  });

  it('scores high-risk systems without evidence low with critical gaps', async () => {
    const report = await reportOf({ scope: 'full', systems: [cvScreener] });

    expect(report.eu_ai_act_score).toBeLessThan(20);
    expect(report.critical).toBeGreaterThanOrEqual(5);
  });

  it('scores a tenant holding every piece of evidence 100 with no gaps', async () => {
    const report = await reportOf({ scope: 'full', systems: [chatbot, cvScreener], evidence: [...evidenceIds] });

    expect(report).toEqual({
      gaps_found: 0,
      critical: 0,
      eu_ai_act_score: 100,
      domains: Object.fromEntries(readinessDomains.map((d) => [d, 100])),
      recommendations: [],
    });
  });

  it('reports the Art. 50 disclosure gap for a chatbot without disclosure evidence', async () => {
    const report = await reportOf({ scope: 'full', systems: [chatbot], evidence: [...evidenceIds].filter((id) => id !== 'ai_interaction_disclosure') });

    expect(report.recommendations).toEqual([
      {
        gap: 'EUAIA-TR-02 People are not told they are interacting with an AI system (Art. 50(1)); systems: support-bot',
        severity: 'high',
        evidence_missing: ['ai_interaction_disclosure'],
        remediation: expect.stringContaining('interacting with an AI system'),
      },
    ]);
    expect(report.domains.transparency).toBeLessThan(100);
  });

  it('counts evidence held for one system only for that system', async () => {
    const otherBot = { ...chatbot, id: 'sales-bot', name: 'Sales bot', evidence: ['ai_interaction_disclosure'] };

    const report = await reportOf({ scope: 'full', systems: [chatbot, otherBot] });

    const art50 = report.recommendations.find((r) => r.gap.startsWith('EUAIA-TR-02'));
    expect(art50?.gap).toContain('systems: support-bot');
    expect(art50?.gap).not.toContain('sales-bot');
  });

  it('computes the documented worked example', async () => {
    // docs/ai-readiness-rules.md, "Worked example".
    const report = await reportOf({ scope: 'full', systems: [chatbot], evidence: ['ai_inventory', 'ai_literacy_training', 'ai_interaction_disclosure'] });

    expect(report.domains).toEqual({
      risk_classification: 36,
      human_oversight: 60,
      data_governance: 0,
      transparency: 75,
      security: 0,
      technical_documentation: 0,
    });
    expect(report.eu_ai_act_score).toBe(37);
    expect(report.gaps_found).toBe(7);
    expect(report.critical).toBe(1);
  });

  it('evaluates only critical and high rules in quick scope', async () => {
    const quick = await reportOf({ scope: 'quick', systems: [cvScreener] });
    const full = await reportOf({ scope: 'full', systems: [cvScreener] });

    expect(quick.recommendations.every((r) => r.severity === 'critical' || r.severity === 'high')).toBe(true);
    expect(quick.gaps_found).toBeLessThan(full.gaps_found);
  });

  it('summarises gaps for executives', async () => {
    const context = await audit({ scope: 'full', focus_framework: 'eu_ai_act', systems: [chatbot, cvScreener] });
    const report = context.artifact<AuditReport>('ai_readiness.audit_report');
    const summary = context.artifact<GapSummary>('ai_readiness.gap_summary');

    expect(summary.eu_ai_act_score).toBe(report.eu_ai_act_score);
    expect(summary.readiness_level).toBe('not_ready');
    expect(Object.values(summary.counts_by_severity).reduce((a, b) => a + b, 0)).toBe(report.gaps_found);
    expect(summary.counts_by_severity.critical).toBe(report.critical);
    expect(summary.top_gaps).toHaveLength(5);
    expect(summary.top_gaps[0].severity).toBe('critical');
    expect(summary.systems.map((s) => [s.id, s.risk_class])).toEqual([['support-bot', 'limited'], ['cv-screener', 'high']]);
    expect(summary.headline).toContain(`${report.eu_ai_act_score}/100`);
  });

  it('fails with malformed_input when two systems share an id', async () => {
    await expect(audit({ scope: 'full', systems: [chatbot, chatbot] })).rejects.toMatchObject({
      constructor: AgentFailure,
      code: 'malformed_input',
      details: [{ path: '/systems/1/id', message: "duplicate id 'support-bot'" }],
    });
  });
});
