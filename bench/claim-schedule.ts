import { LOOK_SCHEDULE } from '#shared/services/worker-claims';
import { summarize, type LatencySummary } from './stats';

/**
 * When a waiting claim looks at its queue: at once, then after `firstDelayMs`, each pause
 * `growth` times the last, at most `maxDelayMs`, until the wait ends (a last look at the end).
 * The chosen schedule is the service's own (`LOOK_SCHEDULE`); the workers phase checks a measured
 * wait's looks against this model.
 */
export interface LookSchedule {
  firstDelayMs: number;
  growth: number;
  maxDelayMs: number;
}

export const CHOSEN_LOOK_SCHEDULE: LookSchedule = LOOK_SCHEDULE;

/** Times of a wait's looks, in ms from its start, as if each look took no time. */
export function lookTimesMs(waitSeconds: number, schedule: LookSchedule = CHOSEN_LOOK_SCHEDULE): number[] {
  const deadline = waitSeconds * 1000;
  const times = [0];
  for (let look = 0; ; look++) {
    const at = times[times.length - 1];
    if (deadline - at <= 0) return times;
    times.push(at + Math.min(deadline - at, schedule.firstDelayMs * schedule.growth ** look, schedule.maxDelayMs));
  }
}

/** The longest pause between two looks of a wait: how late a task created during it can be seen. */
export function longestPauseMs(waitSeconds: number, schedule: LookSchedule = CHOSEN_LOOK_SCHEDULE): number {
  const times = lookTimesMs(waitSeconds, schedule);
  return times.slice(1).reduce((longest, at, index) => Math.max(longest, at - times[index]), 0);
}

/**
 * From a task's arrival to the next look, for arrivals spread evenly over `[0, spanMs)` of a
 * wait (one per millisecond): the model of "enqueue → claimed" without the work of either call.
 */
export function nextLookModel(spanMs: number, waitSeconds: number, schedule: LookSchedule = CHOSEN_LOOK_SCHEDULE): LatencySummary {
  const times = lookTimesMs(waitSeconds, schedule);
  const gaps: number[] = [];
  for (let at = 0; at < spanMs; at++) gaps.push((times.find((look) => look >= at) ?? at) - at);
  return summarize(gaps);
}
