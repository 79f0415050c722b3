/**
 * Fair task dispatch across tenants: each tenant may have at most N tasks running at once (a
 * lease per running task, so a crashed worker's slot frees itself). A worker that receives a task
 * of a tenant at its cap does not run it; it sends the message again with a delay and lets the
 * original go. The delay doubles with each deferral of the same message, so a tenant's deep
 * backlog costs a few retries a minute per message instead of a busy loop, and other tenants'
 * tasks, which are not at their cap, pass straight through.
 */

/** Deferrals after which the delay stops doubling (base × 32). */
const MAX_DOUBLINGS = 5;
/** SQS's longest message delay. */
export const MAX_DELAY_SECONDS = 900;

/**
 * Seconds before a deferred task is offered again: base × 2^deferrals (at most ×32), with "equal
 * jitter" (half fixed, half random) so deferred messages of one flood do not return in lockstep.
 */
export function deferDelaySeconds(baseSeconds: number, deferrals: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_SECONDS, baseSeconds * 2 ** Math.min(Math.max(0, deferrals), MAX_DOUBLINGS));
  return Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.ceil(ceiling / 2 + random() * (ceiling / 2))));
}

/** Leases that ended before `nowMs`: their workers died or hung, and their slots can be taken back. */
export function expiredLeases(leases: Record<string, number>, nowMs: number): string[] {
  return Object.entries(leases)
    .filter(([, until]) => until < nowMs)
    .map(([taskId]) => taskId);
}
