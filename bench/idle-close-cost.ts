import type { UnitUsage } from './cost';
import { PRICES, XRAY_DEFAULT_SAMPLING_RATE } from './prices';

/**
 * Sessions' idle close priced two ways from the measured usage of one fire of the
 * `session-idle-close` target (metered in the triggers phase):
 *
 * (a) one one-time EventBridge Scheduler schedule per idle period, as implemented: a session's
 *     schedule fires once at its deadline; a fire that finds activity schedules the new deadline
 *     (CreateSchedule is free), so a session costs 1 + `pushesForward` fires, the last one closing it.
 * (b) one recurring sweep every N minutes that queries an index of open sessions and closes those
 *     past their deadline. Its query reads every open session's index entry each time, and that
 *     index is written on every activity that moves the deadline.
 */
export interface IdleCloseAssumptions {
  /** The default `idle_timeout_minutes` of POST /sessions. */
  idleTimeoutMinutes: number;
  /** How long a session is in use, on average, before it goes idle. */
  activeMinutes: number;
  /** Fires that find activity and schedule the next deadline, per session. */
  pushesForward: number;
  /** Writes of `last_activity_at` per session (messages, tasks started): each moves the sweep index's entry. */
  activityUpdatesPerSession: number;
  /** Bytes of one open session's entry in the sweep's index (keys, `last_activity_at`, `idle_timeout_minutes`). */
  indexEntryBytes: number;
  sweepEveryMinutes: number[];
  sessionsPerMonth: number[];
}

export const IDLE_CLOSE_ASSUMPTIONS: IdleCloseAssumptions = {
  idleTimeoutMinutes: 1440,
  activeMinutes: 30,
  pushesForward: 1,
  activityUpdatesPerSession: 5,
  indexEntryBytes: 200,
  sweepEveryMinutes: [1, 5],
  sessionsPerMonth: [1_000, 10_000, 100_000, 1_000_000, 10_000_000],
};

const MINUTES_PER_MONTH = 30 * 24 * 60;
const GB = 1024 ** 3;
const READ_UNIT_BYTES = 4096;
const QUERY_PAGE_BYTES = 1024 * 1024;

export interface IdleCloseRow {
  sessionsPerMonth: number;
  /** Sessions open at any moment (Little's law: sessions a month × time open ÷ a month). */
  openSessions: number;
  /** Dollars per million sessions. */
  perSchedule: number;
  perSweep: { everyMinutes: number; usdPerMillion: number; sweepUsdPerMonth: number }[];
  cheaper: string;
}

export interface IdleCloseComparison {
  assumptions: IdleCloseAssumptions;
  /** Dollars per million fires of each kind, all-in (scheduler invocation, Lambda, reads, writes, logs, traces). */
  rescheduledFireUsdPerMillion: number;
  closedFireUsdPerMillion: number;
  /** Dollars per million sessions for the index writes alone (sweep only). */
  indexWritesUsdPerMillion: number;
  rows: IdleCloseRow[];
}

/** All-in dollars of one fire of a schedule target, from its usage per fire. */
export function fireUsd(usage: UnitUsage): number {
  return (
    usage.schedulerInvocations * PRICES.schedulerInvocation.usd +
    usage.invocations * (PRICES.lambdaRequest.usd + XRAY_DEFAULT_SAMPLING_RATE * PRICES.xrayTraceRecorded.usd) +
    usage.gbSeconds * PRICES.lambdaArmGbSecond.usd +
    usage.readUnits * PRICES.dynamoReadRequestUnit.usd +
    usage.writeUnits * PRICES.dynamoWriteRequestUnit.usd +
    usage.sqsRequests * PRICES.sqsRequest.usd +
    (usage.logBytes / GB) * PRICES.logsIngestedGb.usd
  );
}

export function idleCloseComparison(fires: { rescheduled: { usage: UnitUsage }; closed: { usage: UnitUsage } }, assumptions: IdleCloseAssumptions): IdleCloseComparison {
  const { rescheduled, closed } = fires;
  const perSession = assumptions.pushesForward * fireUsd(rescheduled.usage) + fireUsd(closed.usage);
  // The sweep does a close's reads, writes and compute inside its own invocation.
  const closeInSweep = closed.usage.readUnits * PRICES.dynamoReadRequestUnit.usd + closed.usage.writeUnits * PRICES.dynamoWriteRequestUnit.usd + closed.usage.gbSeconds * PRICES.lambdaArmGbSecond.usd;
  // The index entry is put when the session opens, moved (a delete and a put) on each activity, deleted on close.
  const indexWrites = (2 + 2 * assumptions.activityUpdatesPerSession) * Math.max(1, Math.ceil(assumptions.indexEntryBytes / 1024)) * PRICES.dynamoWriteRequestUnit.usd;
  const rows = assumptions.sessionsPerMonth.map((sessions): IdleCloseRow => {
    const openSessions = (sessions * (assumptions.idleTimeoutMinutes + assumptions.activeMinutes)) / MINUTES_PER_MONTH;
    const indexBytes = openSessions * assumptions.indexEntryBytes;
    const perSweep = assumptions.sweepEveryMinutes.map((everyMinutes) => {
      const sweeps = MINUTES_PER_MONTH / everyMinutes;
      // A GSI query is eventually consistent: half a read unit per 4 KB read, at least one 4 KB.
      const readUnits = Math.max(1, Math.ceil(indexBytes / READ_UNIT_BYTES)) * 0.5;
      const pages = Math.max(1, Math.ceil(indexBytes / QUERY_PAGE_BYTES));
      // A page of the query costs about what a fire's reads cost in time: the fire's duration per page;
      // its log lines (platform lines included) as a fire's.
      const sweepUsd =
        PRICES.lambdaRequest.usd +
        XRAY_DEFAULT_SAMPLING_RATE * PRICES.xrayTraceRecorded.usd +
        pages * rescheduled.usage.gbSeconds * PRICES.lambdaArmGbSecond.usd +
        readUnits * PRICES.dynamoReadRequestUnit.usd +
        (rescheduled.usage.logBytes / GB) * PRICES.logsIngestedGb.usd;
      const sweepUsdPerMonth = sweeps * sweepUsd;
      return { everyMinutes, sweepUsdPerMonth, usdPerMillion: (sweepUsdPerMonth / sessions + closeInSweep + indexWrites) * 1e6 };
    });
    const best = perSweep.reduce((low, entry) => (entry.usdPerMillion < low.usdPerMillion ? entry : low), perSweep[0]);
    const perSchedule = perSession * 1e6;
    return { sessionsPerMonth: sessions, openSessions, perSchedule, perSweep, cheaper: best && best.usdPerMillion < perSchedule ? `sweep every ${best.everyMinutes} min` : 'one-time schedules' };
  });
  return { assumptions, rescheduledFireUsdPerMillion: fireUsd(rescheduled.usage) * 1e6, closedFireUsdPerMillion: fireUsd(closed.usage) * 1e6, indexWritesUsdPerMillion: indexWrites * 1e6, rows };
}
