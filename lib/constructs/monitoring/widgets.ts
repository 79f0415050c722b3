import { Duration } from 'aws-cdk-lib';
import { GraphWidget, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';

/** CloudWatch draws at most 100 metrics per graph and lists at most 100 alarms per status widget. */
export const MAX_PER_WIDGET = 100;
export const FIVE_MINUTES = Duration.minutes(5);

export function graph(title: string, left: IMetric[], width: number): GraphWidget {
  return new GraphWidget({ title, left, width, height: 6 });
}

/** One graph, or several numbered ones when there are more metrics than a graph can draw. */
export function graphs(title: string, metrics: IMetric[], width: number): GraphWidget[] {
  const parts = chunks(metrics, MAX_PER_WIDGET);
  return parts.map((part, index) => graph(parts.length > 1 ? `${title} (${index + 1}/${parts.length})` : title, part, width));
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
