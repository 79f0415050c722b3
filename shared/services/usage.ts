import { stringify } from 'csv-stringify/sync';
import { readUsage } from '#shared/adapters/dynamodb/usage-repository';
import { systemClock } from '#shared/domain/clock';
import { AGENT_USAGE_COUNTERS, monthOf, roundSeconds, USAGE_COUNTERS, type AgentUsageCounter, type UsageCounter } from '#shared/domain/usage';
import { neutralizeFormula } from '#shared/scans/exports/csv';

type AgentCounts = Record<AgentUsageCounter, number>;

/** A month's usage as the API answers it. */
export type UsageView = { month: string } & Record<UsageCounter, number> & {
  by_agent: Record<string, AgentCounts & { by_task_type: Record<string, AgentCounts> }>;
};

/** The columns of the CSV download: one row per agent and task type. */
export const USAGE_CSV_COLUMNS = ['month', 'agent', 'task_type', ...AGENT_USAGE_COUNTERS] as const;

/** A tenant's usage in `month` (`YYYY-MM`, default the current UTC month), zeros when nothing was counted. */
export async function monthUsage(tenantId: string, month: string = monthOf(systemClock.now())): Promise<UsageView> {
  const counts = await readUsage(tenantId, month);
  const byAgent: UsageView['by_agent'] = {};
  const rows = [...counts.byTaskType].sort((a, b) => a.agent.localeCompare(b.agent) || a.task_type.localeCompare(b.task_type));
  for (const row of rows) {
    const agent = (byAgent[row.agent] ??= { tasks_created: 0, tasks_completed: 0, task_seconds: 0, by_task_type: {} });
    agent.by_task_type[row.task_type] = { tasks_created: row.tasks_created, tasks_completed: row.tasks_completed, task_seconds: row.task_seconds };
    for (const counter of AGENT_USAGE_COUNTERS) agent[counter] += row[counter];
    agent.task_seconds = roundSeconds(agent.task_seconds);
  }
  const totals = Object.fromEntries(USAGE_COUNTERS.map((counter) => [counter, counts.totals[counter]])) as Record<UsageCounter, number>;
  return { month, ...totals, by_agent: byAgent };
}

/** The month's usage by agent and task type as CSV (RFC 4180, a header row first). */
export function usageCsv(usage: UsageView): string {
  const rows = Object.entries(usage.by_agent).flatMap(([agent, counts]) =>
    Object.entries(counts.by_task_type).map(([taskType, row]) => [usage.month, neutralizeFormula(agent), neutralizeFormula(taskType), ...AGENT_USAGE_COUNTERS.map((counter) => String(row[counter]))]),
  );
  return stringify([[...USAGE_CSV_COLUMNS], ...rows], { record_delimiter: 'windows' });
}
