import type { Context } from 'aws-lambda';
import type { SweepReport } from '#shared/domain/stuck-work';
import { SweepIncomplete, sweepStuckWork } from '#shared/services/stuck-work-sweeper';

/** Time kept back from the function's timeout to finish the item in hand and report. */
const STOP_MARGIN_MS = 10_000;

const log = (entry: Record<string, unknown>) => console.log(JSON.stringify(entry));

/**
 * The stuck-work sweeper, run on a recurring schedule (topology.ts `recurringJobs`): EventBridge
 * Scheduler on AWS, the local runtime's interval here. Returns what it did; the counts are also
 * logged (ApprovalsPending, TasksTimedOut and ScansRedriven come from them). A sweep that could
 * not handle some items throws after handling the rest, so the function's error metric shows it.
 */
export const handler = async (_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SweepReport> => {
  const remaining = context?.getRemainingTimeInMillis?.();
  const actUntil = remaining === undefined ? undefined : new Date(Date.now() + Math.max(0, remaining - STOP_MARGIN_MS));
  try {
    const report = await sweepStuckWork({ actUntil, log });
    log({ level: 'INFO', message: 'stuck-work sweep finished', ...report });
    return report;
  } catch (error) {
    if (error instanceof SweepIncomplete) log({ level: 'ERROR', message: 'stuck-work sweep incomplete', ...error.report, failures: error.failures.length });
    throw error;
  }
};
