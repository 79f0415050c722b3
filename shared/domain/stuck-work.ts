import type { Task, TaskError } from '#shared/domain/task';

/**
 * What the stuck-work sweeper considers stuck, and what it does about it. Pure rules over the
 * records' timestamps; the sweeper service reads the sparse active indexes and applies them with
 * conditional writes, so a worker finishing at the same moment and the sweeper never both win.
 * The rule for scans' detector runs is in shared/scans/detector-run-redrive.ts, beside the scan
 * model, so that the domain does not depend on scans.
 */
export interface SweepPolicy {
  /**
   * How long a task may run, counted from when it last started or resumed. One deadline for every
   * task type: no agent manifest declares a run time of its own.
   */
  taskDeadlineSeconds: number;
  /**
   * A waiting task, a pending detector run or an approved action not executed this long after it
   * was dispatched: its message is taken as lost and sent again. Doubles after each re-send of
   * the same task (up to `MAX_BACKOFF_FACTOR`), so a long backlog is not flooded with duplicates.
   */
  redispatchAfterSeconds: number;
  /** A running task with no write for this long has lost its worker (longer than a worker may live). */
  stalledTaskSeconds: number;
  /** A detector run running this long has lost its worker (longer than the detector worker may live). */
  stalledDetectorRunSeconds: number;
}

/** The longest a re-dispatch waits is this many times `redispatchAfterSeconds`. */
export const MAX_BACKOFF_FACTOR = 8;

export const DEFAULT_TASK_DEADLINE_SECONDS = 15 * 60;
export const DEFAULT_REDISPATCH_AFTER_SECONDS = 5 * 60;

/** The fields of an active task the rules read (the active-task index holds them all). */
export type ActiveTask = Pick<Task, 'status' | 'created_at' | 'updated_at' | 'started_at' | 'resumed_at' | 'redispatched_at' | 'redispatch_count'>;

export type TaskVerdict =
  | { action: 'time_out'; deadlineSeconds: number }
  /** Send the task to the workers again: its message or its worker was lost. */
  | { action: 'redispatch'; reason: 'dispatch_lost' | 'worker_lost' }
  | { action: 'none' };

/** Seconds from the ISO time `from` to `now`; 0 when there is no time. */
export const secondsSince = (from: string | undefined, now: Date): number => (from ? (now.getTime() - Date.parse(from)) / 1000 : 0);
/** The latest of some ISO times (they sort as text), ignoring the missing ones. */
export const latestTime = (...times: (string | undefined)[]): string | undefined => times.filter((time): time is string => Boolean(time)).sort().at(-1);

/** When a task last entered `running`: its deadline counts from here (a pause does not count). */
export function runningSince(task: Pick<Task, 'started_at' | 'resumed_at'>): string | undefined {
  return latestTime(task.started_at, task.resumed_at);
}

function redispatchDelaySeconds(count: number | undefined, policy: SweepPolicy): number {
  return policy.redispatchAfterSeconds * Math.min(MAX_BACKOFF_FACTOR, 2 ** (count ?? 0));
}

/**
 * What the sweeper does with one active task:
 * - running past its deadline → fail it with `agent_timeout`;
 * - running with no write for `stalledTaskSeconds` (and not re-sent since) → its worker died: re-send;
 * - queued or pending since its last dispatch for longer than the re-dispatch delay → re-send;
 * - anything else, including `awaiting_approval` (its approval expiry handles it) → leave it.
 */
export function taskVerdict(task: ActiveTask, now: Date, policy: SweepPolicy): TaskVerdict {
  if (task.status === 'running') {
    const deadlineSeconds = policy.taskDeadlineSeconds;
    if (secondsSince(runningSince(task), now) > deadlineSeconds) return { action: 'time_out', deadlineSeconds };
    if (secondsSince(latestTime(task.updated_at, task.redispatched_at), now) > policy.stalledTaskSeconds) return { action: 'redispatch', reason: 'worker_lost' };
    return { action: 'none' };
  }
  if (task.status === 'queued' || task.status === 'pending') {
    const since = latestTime(task.created_at, task.redispatched_at);
    if (secondsSince(since, now) > redispatchDelaySeconds(task.redispatch_count, policy)) return { action: 'redispatch', reason: 'dispatch_lost' };
  }
  return { action: 'none' };
}

/** The error a task that ran past its deadline fails with. */
export function agentTimeoutError(deadlineSeconds: number): TaskError {
  return { code: 'agent_timeout', message: `The agent did not finish within ${deadlineSeconds} seconds of running.` };
}

/** Whether an approved action the tool proxy has not executed was resolved long enough ago to re-send. */
export function toolCallNeedsRedispatch(approval: { resolved_at?: string; created_at: string }, now: Date, policy: SweepPolicy): boolean {
  return secondsSince(approval.resolved_at ?? approval.created_at, now) > policy.redispatchAfterSeconds;
}

/** What one sweep did, for the log line and the ApprovalsPending, TasksTimedOut and ScansRedriven metrics. */
export interface SweepReport {
  tasksTimedOut: number;
  /** Workers' leases that ran out (their tasks re-queued, or failed at the last one). */
  leasesLost: number;
  tasksRedispatched: number;
  detectorRunsRedriven: number;
  toolCallsRedispatched: number;
  approvalsPending: number;
  /** API keys capped or revoked by the jobs that follow people demoted or removed (key-binding.ts). */
  apiKeysCapped: number;
  apiKeysRevoked: number;
}
