import type { Task, TaskError } from '#shared/domain/task';

/**
 * Leases of a custom agent's workers (docs/workers.md): a claim leases the task for a while,
 * heartbeats extend the lease, and a lease that runs out puts the task back in the queue. A worker
 * that keeps losing its task is broken, not unlucky: the third lost lease fails the task.
 */
export const DEFAULT_LEASE_SECONDS = 60;
export const MIN_LEASE_SECONDS = 10;
export const MAX_LEASE_SECONDS = 900;
/** A claim waits at most this long for a task: under API Gateway's 29-second integration timeout. */
export const MAX_CLAIM_WAIT_SECONDS = 20;
export const MAX_LOST_LEASES = 3;

export function leaseExpiry(now: Date, seconds: number): string {
  return new Date(now.getTime() + seconds * 1000).toISOString();
}

export type LeaseVerdict = { action: 'none' } | { action: 'requeue'; lostLeases: number } | { action: 'time_out'; lostLeases: number };

/** What the stuck-work sweeper does with a worker's task: nothing while its lease holds; else re-queue it, or fail it at the third loss. */
export function leaseVerdict(task: Pick<Task, 'status' | 'lease_expires_at' | 'lost_leases'>, now: Date): LeaseVerdict {
  if (task.status !== 'running' || !task.lease_expires_at || Date.parse(task.lease_expires_at) >= now.getTime()) return { action: 'none' };
  const lostLeases = (task.lost_leases ?? 0) + 1;
  return lostLeases >= MAX_LOST_LEASES ? { action: 'time_out', lostLeases } : { action: 'requeue', lostLeases };
}

export function lostLeasesError(lostLeases: number): TaskError {
  return { code: 'agent_timeout', message: `The agent's workers lost their lease on the task ${lostLeases} times without finishing it.` };
}
