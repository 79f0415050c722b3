/** The fields of GET /usage this module reads (a subset of the `Usage` schema). */
export interface UsageFigures {
  by_agent: Record<string, { tasks_created: number; tasks_completed: number; task_seconds: number; by_task_type: Record<string, { tasks_created: number; tasks_completed: number; task_seconds: number }> }>;
}

/** One bar of the tasks-by-agent chart. */
export interface AgentBar {
  agent: string;
  created: number;
  completed: number;
  seconds: number;
}

/** The month (`YYYY-MM`) an instant falls in, in UTC, as the usage route counts. */
export function utcMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** Whether `value` is a month the route accepts (`YYYY-MM`). */
export function isMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

/** Agents by tasks created, most first (ties by name), for the chart and its table. */
export function agentBars(usage: UsageFigures): AgentBar[] {
  return Object.entries(usage.by_agent)
    .map(([agent, figures]) => ({ agent, created: figures.tasks_created, completed: figures.tasks_completed, seconds: figures.task_seconds }))
    .sort((a, b) => b.created - a.created || a.agent.localeCompare(b.agent));
}

/** One row per agent and task type, as the CSV has them. */
export function taskTypeRows(usage: UsageFigures) {
  return Object.entries(usage.by_agent).flatMap(([agent, figures]) =>
    Object.entries(figures.by_task_type).map(([taskType, row]) => ({ agent, taskType, created: row.tasks_created, completed: row.tasks_completed, seconds: row.task_seconds })),
  ).sort((a, b) => a.agent.localeCompare(b.agent) || a.taskType.localeCompare(b.taskType));
}

/** A round axis maximum at or above `value` (1, 2 or 5 times a power of ten), so ticks read well. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** Task time in words: "42 s", "3 min 5 s", "2 h 10 min". */
export function duration(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours ? `${hours} h ${minutes} min` : `${minutes} min${rest ? ` ${rest} s` : ''}`;
}
