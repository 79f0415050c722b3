/** The tenant-wide usage counters of a month, in the order the API and the CSV list them. */
export const USAGE_COUNTERS = [
  'tasks_created',
  'tasks_completed',
  'tasks_failed',
  'tasks_cancelled',
  'task_seconds',
  'scans',
  'pages_scanned',
  'approvals',
  'tool_calls',
  'webhook_deliveries',
] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/** The counters kept by agent and task type. */
export const AGENT_USAGE_COUNTERS = ['tasks_created', 'tasks_completed', 'task_seconds'] as const;
export type AgentUsageCounter = (typeof AGENT_USAGE_COUNTERS)[number];

export interface UsageCounts {
  totals: Record<UsageCounter, number>;
  byTaskType: Array<{ agent: string; task_type: string } & Record<AgentUsageCounter, number>>;
}

/** The UTC month (`YYYY-MM`) of an ISO time. */
export function monthOf(at: string | Date): string {
  return new Date(at).toISOString().slice(0, 7);
}

/** The seconds a task ran, to the millisecond: from its start to its end; 0 if it never started. */
export function taskSeconds(startedAt: string | undefined, endedAt: string): number {
  if (!startedAt) return 0;
  return Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)) / 1000;
}

/** Seconds summed from several counters, without the binary fractions' stray digits. */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
