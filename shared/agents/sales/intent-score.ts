import type { IntentSignal, IntentSignalType } from './company';

/** How strongly each signal type suggests a near-term purchase; the sum is capped at 100. */
export const intentWeights: Record<IntentSignalType, number> = {
  funding: 30,
  hiring: 25,
  compliance_deadline: 25,
  expansion: 20,
  tech_adoption: 20,
  leadership_change: 15,
};

/** Counts each signal type once, so ten job ads do not outweigh a funding round. */
export function intentScore(signals: readonly IntentSignal[]): number {
  const types = new Set(signals.map((s) => s.type));
  let score = 0;
  for (const type of types) score += intentWeights[type];
  return Math.min(100, score);
}
