import type { Context } from 'aws-lambda';
import type { SweepReport } from '#shared/domain/stuck-work';
import { logger } from '#shared/observability/logger';
import { recordMetric } from '#shared/observability/metrics';
import { observedHandler } from '#shared/observability/observed-handler';
import { SweepIncomplete, sweepStuckWork } from '#shared/services/stuck-work-sweeper';

/** Time kept back from the function's timeout to finish the item in hand and report. */
const STOP_MARGIN_MS = 10_000;

const log = (entry: Record<string, unknown>) => {
  const { level, message, ...fields } = entry as { level?: string; message?: string };
  if (level === 'ERROR') logger.error(message ?? 'stuck-work sweeper', fields);
  else if (level === 'WARN') logger.warn(message ?? 'stuck-work sweeper', fields);
  else logger.info(message ?? 'stuck-work sweeper', fields);
};

/** The gauges and counters the dashboard and alarms read (shared/observability/metric-catalog.ts). */
function publish(report: SweepReport): void {
  recordMetric('approvalsPending', report.approvalsPending);
  recordMetric('tasksTimedOut', report.tasksTimedOut);
  recordMetric('leasesLost', report.leasesLost);
  recordMetric('scansRedriven', report.detectorRunsRedriven);
}

/**
 * The stuck-work sweeper, run on a recurring schedule (topology.ts `recurringJobs`): EventBridge
 * Scheduler on AWS, the local runtime's interval here. Returns what it did and publishes the
 * counts as metrics. A sweep that could not handle some items throws after handling the rest
 * (and after publishing what it did), so the function's error metric shows it.
 */
export const handler = observedHandler(async (_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SweepReport> => {
  const remaining = context?.getRemainingTimeInMillis?.();
  const actUntil = remaining === undefined ? undefined : new Date(Date.now() + Math.max(0, remaining - STOP_MARGIN_MS));
  try {
    const report = await sweepStuckWork({ actUntil, log });
    publish(report);
    logger.info('stuck-work sweep finished', { ...report });
    return report;
  } catch (error) {
    if (error instanceof SweepIncomplete) {
      publish(error.report);
      logger.error('stuck-work sweep incomplete', { ...error.report, failures: error.failures.length });
    }
    throw error;
  }
});
