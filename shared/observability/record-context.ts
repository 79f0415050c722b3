import { withLogContext, type LogFields } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';

/**
 * Runs the work of one queue or stream record with the record's ids (tenant, task, correlation,
 * message id) on every log line it causes. A failure is logged here, with those ids, and thrown
 * on, so the batch reports the record for redelivery.
 */
export function observeRecord<T>(fields: LogFields, work: () => Promise<T>): Promise<T> {
  return withLogContext(fields, async () => {
    try {
      return await work();
    } catch (error) {
      logger.error('record failed; it will be retried', { error: error as Error });
      throw error;
    }
  });
}
