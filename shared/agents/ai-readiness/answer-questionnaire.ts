import { evidenceTitle, type EvidenceId } from './evidence-catalogue';
import { questionnaireTopics, type Keyword, type QuestionnaireTopic } from './questionnaire-topics';
import type { ClassifiedSystem } from './risk-classification';

export interface Question {
  id: string;
  text: string;
}

export interface QuestionnaireAnswer {
  question_id: string;
  question: string;
  answer: string;
  /** Matched topic id, or `null` when no topic matched. */
  topic: string | null;
  evidence_used: string[];
  needs_review: boolean;
}

/** `data` of an `ai_readiness.questionnaire_response` artifact. */
export interface QuestionnaireResponse {
  answers: QuestionnaireAnswer[];
  confidence_scores: Record<string, number>;
}

/** Below this keyword score a question matches no topic. */
export const matchThreshold = 2;
/** Keyword score at which the match strength saturates at 1. */
export const fullMatchScore = 6;
/** Answers under this confidence are flagged for review. */
export const reviewBelow = 0.75;
/** Confidence multiplier when another topic scored as high as the chosen one. */
export const tiePenalty = 0.8;

/**
 * Lower-cases, turns every run of non-alphanumerics into one space, and singularises each word
 * (drops a final `s` from words over three letters not ending in `ss`) so "logs" matches "log".
 */
export function normaliseText(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

function wordMatches(pattern: string, word: string): boolean {
  return pattern.endsWith('*') ? word.startsWith(pattern.slice(0, -1)) : word === pattern;
}

function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start += 1) {
    if (phrase.every((p, i) => wordMatches(p, words[start + i]))) return true;
  }
  return false;
}

const compiledTopics = questionnaireTopics.map((topic) => ({
  topic,
  phrases: topic.keywords.map(([phrase, weight]: Keyword) => ({
    // Normalise phrases like questions, keeping the `*` marker off the singulariser.
    words: phrase.split(' ').map((w) => (w.endsWith('*') ? w : normaliseText(w)[0])),
    weight,
  })),
}));

/** Sum of the weights of distinct keywords the question contains. */
export function topicScore(words: readonly string[], topicIndex: number): number {
  let score = 0;
  for (const phrase of compiledTopics[topicIndex].phrases) {
    if (containsPhrase(words, phrase.words)) score += phrase.weight;
  }
  return score;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Answers one question; `held` is every evidence id the tenant declared anywhere. */
export function answerQuestion(
  question: Question,
  held: ReadonlySet<string>,
  systems: readonly ClassifiedSystem[],
): { answer: QuestionnaireAnswer; confidence: number } {
  const words = normaliseText(question.text);
  const scores = compiledTopics.map((_, i) => topicScore(words, i));
  let best = 0;
  for (let i = 1; i < scores.length; i += 1) if (scores[i] > scores[best]) best = i;
  const bestScore = scores[best];
  if (bestScore < matchThreshold) {
    return {
      answer: {
        question_id: question.id,
        question: question.text,
        answer:
          'Cannot answer from evidence: this question matches no topic in the knowledge base. ' +
          'It needs a manual answer.',
        topic: null,
        evidence_used: [],
        needs_review: true,
      },
      confidence: 0,
    };
  }
  const tie = scores.some((s, i) => i !== best && s === bestScore);
  const topic = compiledTopics[best].topic;
  const usedIds = topic.evidence.filter((id) => held.has(id));
  const missingIds = topic.evidence.filter((id) => !held.has(id));
  const match = Math.min(1, bestScore / fullMatchScore);
  const coverage = usedIds.length / topic.evidence.length;
  const confidence = round2((0.4 * match + 0.6 * coverage) * (tie ? tiePenalty : 1));
  return {
    answer: {
      question_id: question.id,
      question: question.text,
      answer: composeAnswer(topic, usedIds, missingIds, systems),
      topic: topic.id,
      evidence_used: usedIds,
      needs_review: tie || missingIds.length > 0 || confidence < reviewBelow,
    },
    confidence,
  };
}

function composeAnswer(
  topic: QuestionnaireTopic,
  used: EvidenceId[],
  missing: EvidenceId[],
  systems: readonly ClassifiedSystem[],
): string {
  const list = (ids: EvidenceId[]): string => ids.map(evidenceTitle).join('; ');
  const parts: string[] = [];
  if (missing.length === 0) {
    parts.push(`Yes. ${topic.affirmative}`, `Evidence: ${list(used)}.`);
  } else if (used.length > 0) {
    parts.push(
      `Partially. ${topic.affirmative}`,
      `Evidence on file: ${list(used)}.`,
      `Not yet documented: ${list(missing)}; that part needs confirmation before sending.`,
    );
  } else {
    parts.push(`Cannot confirm from evidence. ${topic.negative}`, `Missing evidence: ${list(missing)}.`);
  }
  const note = topic.systemsNote?.({ held: used, missing, systems });
  if (note) parts.push(note);
  return parts.join(' ');
}

/** Answers every question in input order. */
export function answerQuestionnaire(
  questions: readonly Question[],
  held: ReadonlySet<string>,
  systems: readonly ClassifiedSystem[],
): QuestionnaireResponse {
  const results = questions.map((q) => answerQuestion(q, held, systems));
  return {
    answers: results.map((r) => r.answer),
    // fromEntries defines own properties, so an id such as "__proto__" stays a plain key.
    confidence_scores: Object.fromEntries(results.map((r) => [r.answer.question_id, r.confidence])),
  };
}
