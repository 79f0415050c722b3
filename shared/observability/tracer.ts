import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from '#shared/observability/metric-catalog';

/**
 * The one X-Ray tracer of a process. Powertools turns it off by itself outside Lambda (no
 * AWS_EXECUTION_ENV), and POWERTOOLS_TRACE_ENABLED=false turns it off anywhere.
 */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** An AWS SDK v3 client whose calls appear as X-Ray subsegments (unchanged when tracing is off). */
export function traced<T>(client: T): T {
  return tracer.captureAWSv3Client(client);
}
