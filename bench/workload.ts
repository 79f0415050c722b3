import { builtInAgents } from '#shared/agents/catalog';
import type { ApiClient } from './api-client';
import { waitFor } from './api-client';

/** One task type of the catalog with the first example input its manifest documents. */
export interface TaskTypeWorkload {
  agent: string;
  taskType: string;
  input: Record<string, unknown>;
  /** How the bench names it when it is not just the task type with its example. */
  label?: string;
}

/**
 * Every task type of every built-in agent, each with its manifest's first example: the bench
 * follows the catalog, so a new task type is benchmarked without touching the bench.
 */
export function taskTypeWorkloads(): TaskTypeWorkload[] {
  return builtInAgents.flatMap((agent) =>
    agent.manifest.task_types.map((taskType) => {
      const examples = taskType.input_schema.examples as Record<string, unknown>[] | undefined;
      if (!examples?.length) throw new Error(`${taskType.task_type} documents no example input for the benchmark to send.`);
      return { agent: agent.manifest.slug, taskType: taskType.task_type, input: examples[0] };
    }),
  );
}

export const FULL_AUDIT = 'ai_readiness.full_audit';

/**
 * A full audit of an organisation with thirty AI systems, each described at length: an input of
 * about 45 KB (the API takes up to 256 KB). Metered beside the examples, whose inputs are all under
 * 1 KB, because what a task costs grows with its input: the input is written once, and it is in
 * every body delivered for the task's events.
 */
export function largeInputWorkload(): TaskTypeWorkload {
  const example = workloadOf(FULL_AUDIT);
  const systems = Array.from({ length: 30 }, (_, index) => ({
    id: `system-${index}`,
    name: `AI system ${index}`,
    category: index % 3 === 0 ? 'employment' : 'chatbot',
    purpose: `System ${index} ${'screens, ranks and explains its decisions to the people they concern; '.repeat(20)}`.slice(0, 1400),
    uses_personal_data: true,
  }));
  const input = { ...example.input, systems };
  return { ...example, input, label: `${FULL_AUDIT}, ${Math.round(Buffer.byteLength(JSON.stringify(input)) / 1024)} KB input` };
}

export function workloadOf(taskType: string): TaskTypeWorkload {
  const found = taskTypeWorkloads().find((workload) => workload.taskType === taskType);
  if (!found) throw new Error(`No task type ${taskType} in the catalog.`);
  return found;
}

/** Deploys every built-in agent for the bench tenant. */
export async function deployAgents(api: ApiClient): Promise<void> {
  for (const agent of builtInAgents) await api.call('POST', '/agents/deploy', { body: { agent_slug: agent.manifest.slug, name: agent.manifest.name } });
}

export const TERMINAL_TASK_STATUSES = ['complete', 'failed', 'cancelled'];

/** Creates a task (slug shape, so 202) and returns its id. */
export async function createTask(api: ApiClient, workload: TaskTypeWorkload): Promise<string> {
  const created = await api.call<{ task_id: string }>('POST', '/tasks', { body: { agent: workload.agent, task_type: workload.taskType, input: workload.input }, expect: 202 });
  return created.task_id;
}

/**
 * Polls a task until it ends (setup only: the measured phases learn of completion by events). A
 * 503 while the shared machine is busy is retried: setup is not measured.
 */
export async function taskEnded(api: ApiClient, taskId: string, timeoutMs = 120_000): Promise<string> {
  return waitFor(`task ${taskId} to end`, async () => {
    const task = await api.call<{ status: string }>('GET', `/tasks/${taskId}`).catch((error: unknown) => {
      if (String(error).includes('answered 503')) return undefined;
      throw error;
    });
    return task && TERMINAL_TASK_STATUSES.includes(task.status) ? task.status : undefined;
  }, timeoutMs, 250);
}

/** Runs `count` tasks of one type to their end, `batch` at a time (setup data for the route phase). */
export async function seedTasks(api: ApiClient, workload: TaskTypeWorkload, count: number, batch = 8): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const created = await Promise.all(Array.from({ length: Math.min(batch, count - ids.length) }, () => createTask(api, workload)));
    await Promise.all(created.map((id) => taskEnded(api, id)));
    ids.push(...created);
  }
  return ids;
}

/** Creates a project on the bench's test site, with a crawl small enough for a bench run. */
export async function createProject(api: ApiClient, siteUrl: string): Promise<string> {
  const project = await api.call<{ project_id: string }>('POST', '/projects', { body: { name: 'Bench site', target: siteUrl, crawl: { max_pages: 10, timeout_seconds: 5 } } });
  return project.project_id;
}

export async function createScan(api: ApiClient, projectId: string): Promise<string> {
  const scan = await api.call<{ scan_id: string }>('POST', `/projects/${projectId}/scans`, { body: {} });
  return scan.scan_id;
}

export async function scanEnded(api: ApiClient, scanId: string, timeoutMs = 180_000): Promise<string> {
  return waitFor(`scan ${scanId} to end`, async () => {
    const scan = await api.call<{ status: string }>('GET', `/scans/${scanId}`).catch((error: unknown) => {
      if (String(error).includes('answered 503')) return undefined;
      throw error;
    });
    return scan && ['completed', 'failed', 'cancelled'].includes(scan.status) ? scan.status : undefined;
  }, timeoutMs, 250);
}
