import { describe, expect, it } from 'vitest';
import { AgentFailure } from '#shared/agents/agent';
import type { QuestionnaireResponse } from '#shared/agents/ai-readiness/answer-questionnaire';
import { normaliseText } from '#shared/agents/ai-readiness/answer-questionnaire';
import { evidenceIds } from '#shared/agents/ai-readiness/evidence-catalogue';
import { questionnaireTopics } from '#shared/agents/ai-readiness/questionnaire-topics';
import { runTask } from './run-task';

const respond = async (input: unknown) =>
  (await runTask('ai-readiness-agent', 'questionnaire.respond', input)).artifact<QuestionnaireResponse>(
    'ai_readiness.questionnaire_response',
  );

const questions = [
  { id: 'Q1', text: 'Do you use customer data to train your AI models?' },
  { id: 'Q2', text: 'Is customer data encrypted at rest and in transit?' },
  { id: 'Q3', text: 'How are your AI systems classified under the EU AI Act?' },
  { id: 'Q4', text: 'How long do you retain logs?' },
  { id: 'Q5', text: 'Describe your incident response and breach notification process.' },
  { id: 'Q6', text: 'Do you test models for bias against protected groups?' },
  { id: 'Q7', text: 'Can a human override the decision of the AI system?' },
  { id: 'Q8', text: 'Please list your sub-processors.' },
  { id: 'Q9', text: 'What is the colour of your logo?' },
];

describe('questionnaire.respond', () => {
  it('answers every question, in order, with a confidence in [0, 1]', async () => {
    const data = await respond({ questions });

    expect(Object.keys(data).sort()).toEqual(['answers', 'confidence_scores']);
    expect(data.answers.map((a) => a.question_id)).toEqual(questions.map((q) => q.id));
    expect(Object.keys(data.confidence_scores)).toEqual(questions.map((q) => q.id));
    for (const a of data.answers) {
      expect(a.answer.length).toBeGreaterThan(0);
      expect(a.question).toBe(questions.find((q) => q.id === a.question_id)?.text);
      const c = data.confidence_scores[a.question_id];
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
    }
  });

  it('matches questions to the expected topics', async () => {
    const data = await respond({ questions });

    expect(data.answers.map((a) => a.topic)).toEqual([
      'customer_data_training',
      'encryption',
      'eu_ai_act_risk_class',
      'data_retention',
      'incident_response',
      'bias_testing',
      'human_oversight',
      'subprocessors',
      null,
    ]);
  });

  it('flags an unmatched question as unanswerable with zero confidence', async () => {
    const data = await respond({ questions: [{ id: 'logo', text: 'What is the colour of your logo?' }] });

    expect(data.answers[0]).toMatchObject({ topic: null, evidence_used: [], needs_review: true });
    expect(data.answers[0].answer).toMatch(/^Cannot answer from evidence/);
    expect(data.confidence_scores).toEqual({ logo: 0 });
  });

  it('answers with full confidence from complete evidence and low confidence without it', async () => {
    const question = [{ id: 'Q2', text: 'Is customer data encrypted at rest and in transit?' }];

    const withEvidence = await respond({ questions: question, evidence: ['encryption_at_rest', 'encryption_in_transit'] });
    const without = await respond({ questions: question });

    expect(withEvidence.answers[0]).toMatchObject({ evidence_used: ['encryption_at_rest', 'encryption_in_transit'], needs_review: false });
    expect(withEvidence.answers[0].answer).toMatch(/^Yes\./);
    expect(withEvidence.confidence_scores.Q2).toBe(1);
    // match = min(1, (3 + 2 + 2) / 6) = 1; coverage 0 → 0.4 × 1 + 0.6 × 0 = 0.4
    expect(without.confidence_scores.Q2).toBe(0.4);
    expect(without.answers[0]).toMatchObject({ evidence_used: [], needs_review: true });
    expect(without.answers[0].answer).toMatch(/^Cannot confirm from evidence\./);
  });

  it('uses evidence held for a system, and describes the systems where the topic needs them', async () => {
    const data = await respond({
      questions: [{ id: 'Q3', text: 'How are your AI systems classified under the EU AI Act?' }],
      systems: [
        { id: 'support-bot', name: 'Support bot', category: 'chatbot', evidence: ['risk_classification_record'] },
        { id: 'cv-screener', name: 'CV screener', category: 'employment' },
      ],
    });

    expect(data.answers[0].evidence_used).toEqual(['risk_classification_record']);
    expect(data.answers[0].answer).toContain('Partially.');
    expect(data.answers[0].answer).toContain('CV screener (cv-screener): high risk, Annex III area: employment');
  });

  it('is deterministic', async () => {
    const input = { questions, evidence: [...evidenceIds] };

    expect(await respond(input)).toEqual(await respond(input));
  });

  it('keeps a question id like __proto__ as an ordinary key', async () => {
    const data = await respond({ questions: [{ id: '__proto__', text: 'Is data encrypted?' }] });

    expect(Object.keys(data.confidence_scores)).toEqual(['__proto__']);
  });

  it('fails with malformed_input on duplicate question ids', async () => {
    const input = { questions: [questions[0], { ...questions[1], id: 'Q1' }] };

    await expect(respond(input)).rejects.toBeInstanceOf(AgentFailure);
    await expect(respond(input)).rejects.toMatchObject({ code: 'malformed_input' });
  });

  it('normalises text into singular lower-case words', () => {
    expect(normaliseText('Sub-processors & LOGS, access?')).toEqual(['sub', 'processor', 'log', 'access']);
    expect(normaliseText('class process')).toEqual(['class', 'process']);
  });

  it('has unique topic ids whose evidence is catalogued', () => {
    const ids = questionnaireTopics.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of questionnaireTopics) for (const e of t.evidence) expect(evidenceIds).toContain(e);
  });
});
