import type { LatencySummary } from './stats';

/** Formatting shared by the report's sections (bench/report.ts and the sections in their own files). */
export const num = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const ms = (summary: LatencySummary) => `${num(summary.p50, 1)} / ${num(summary.p99, 1)}`;
export const mark = (met: boolean) => (met ? '✅ met' : '❌ not met');
export const usd = (value: number) => `$${value < 0.01 && value > 0 ? value.toFixed(4) : value.toFixed(2)}`;

export function table(header: string[], rows: (string | number)[][]): string[] {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}
