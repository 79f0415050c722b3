import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { SERVICE_NAME } from '#shared/observability/metric-catalog';
import { currentLogContext } from '#shared/observability/log-context';

/**
 * Powertools' standard JSON keys, plus the fields of the current log context (tenant, task,
 * correlation and request ids). Explicit fields of a log call win over the context's.
 */
class GatehouseLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: lambda?.coldStart,
        function_name: lambda?.functionName,
        function_memory_size: lambda?.memoryLimitInMB,
        function_arn: lambda?.invokedFunctionArn,
        function_request_id: lambda?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes({ ...currentLogContext(), ...additionalLogAttributes });
  }
}

/**
 * The one logger of a process: structured JSON lines on stdout. Level from POWERTOOLS_LOG_LEVEL
 * (INFO on AWS; the local runtime and the tests choose quieter defaults, see
 * docs/operating/log-queries.md).
 */
export const logger = new Logger({ serviceName: SERVICE_NAME, logFormatter: new GatehouseLogFormatter() });
