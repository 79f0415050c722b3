import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import { METRICS, METRICS_NAMESPACE, SERVICE_NAME, type MetricDefinition, type MetricKey } from '#shared/observability/metric-catalog';

/**
 * The one EMF metrics buffer of a process: namespace and `service` dimension from the catalog.
 * Aggregate series are buffered and flushed once per invocation by `flushMetrics()`.
 */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

const UNITS = { Count: MetricUnit.Count, Milliseconds: MetricUnit.Milliseconds } as const;

/**
 * Records a catalog metric: the aggregate series (dimension `service` only, which alarms watch)
 * and, for metrics with a breakdown, the same value once more with `service` plus the breakdown
 * dimensions, as its own EMF line (Powertools `singleMetric()`), so that the two series never
 * share a dimension set.
 */
export function recordMetric(key: MetricKey, value: number, breakdown?: Readonly<Record<string, string>>): void {
  const definition: MetricDefinition = METRICS[key];
  const unit = UNITS[definition.unit];
  metrics.addMetric(definition.name, unit, value);
  if (!definition.breakdown || !breakdown) return;
  const single = metrics.singleMetric();
  // Exactly the catalog's dimensions, so that the dashboard's dimension set always matches.
  for (const name of definition.breakdown) single.addDimension(name, breakdown[name] || 'unknown');
  single.addMetric(definition.name, unit, value);
}

/**
 * Publishes the buffered metrics at the end of every invocation, also when the handler throws.
 * Powertools' `logMetrics` does the same but warns on every invocation that recorded nothing (a
 * read-only route); Powertools' answer to that (issue #2036) is `hasStoredMetrics()`.
 */
export function flushMetrics(): middy.MiddlewareObj {
  const flush = async () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}
