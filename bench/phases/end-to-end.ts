import { EventSource } from 'eventsource';
import { decodeTime } from 'ulid';
import { EVENT_TYPES } from '#shared/domain/event';
import { apiClient, waitFor } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { progress } from '../progress';
import type { EndToEndRun } from '../results';
import { summarize } from '../stats';
import { createTask, deployAgents, FULL_AUDIT, workloadOf } from '../workload';
import { listenForWebhooks } from '../webhook-listener';

/** A task not complete this long after it was created counts as an error. */
const TASK_TIMEOUT_MS = 60_000;
/** After the producers stop, how long SSE frames and webhooks of their tasks may still take. */
const DRAIN_MS = 20_000;

/** When an event was written: its id is a ULID minted just before the write commits. */
function writtenAt(eventId: string): number {
  return decodeTime(eventId.replace(/^evt_/, '').toUpperCase());
}

interface Completion {
  /** When the task.complete (or task.failed) event was written. */
  at: number;
  type: string;
}

/**
 * End to end on the local runtime: producers create `ai_readiness.full_audit` tasks back to back
 * (each waits for its task to end before creating the next), while one SSE client and one webhook
 * receiver take every event of the tenant. Latencies are from the event's write to its arrival.
 */
export async function run(config: BenchConfig): Promise<EndToEndRun[]> {
  const engines = await startBenchEngines();
  const runtime = await startBenchRuntime({ engines, name: 'bench-e2e', workers: true, workerConcurrency: config.workerConcurrency });
  const api = apiClient(runtime.baseUrl, runtime.key);
  const workload = workloadOf(FULL_AUDIT);
  let sseLatencies: number[] = [];
  let webhookLatencies: number[] = [];
  let windowStart = Number.POSITIVE_INFINITY;
  const viaSse = new Set<string>();
  const viaWebhook = new Set<string>();
  const completions = new Map<string, Completion>();
  const waiters = new Map<string, () => void>();
  const errors: string[] = [];

  const completed = (taskId: string, completion: Completion) => {
    if (!completions.has(taskId)) completions.set(taskId, completion);
    waiters.get(taskId)?.();
  };
  /** Resolves with the task's completion once SSE or webhook tells of it, or undefined after the timeout. */
  const completionOf = async (taskId: string): Promise<Completion | undefined> => {
    const ended = await new Promise<boolean>((resolve) => {
      if (completions.has(taskId)) return resolve(true);
      const timer = setTimeout(() => resolve(false), TASK_TIMEOUT_MS);
      waiters.set(taskId, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    waiters.delete(taskId);
    return ended ? completions.get(taskId) : undefined;
  };
  const listener = await listenForWebhooks(api, (payload, receivedAt) => {
    const at = Date.parse(payload.created_at);
    if (at >= windowStart) webhookLatencies.push(receivedAt - at);
    if ((payload.type === 'task.complete' || payload.type === 'task.failed') && payload.data.task_id) {
      viaWebhook.add(payload.data.task_id);
      completed(payload.data.task_id, { at, type: payload.type });
    }
  });
  const stream = new EventSource(`${runtime.baseUrl}/events/stream`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${runtime.key}` } }),
  });
  let streamErrors = 0;
  stream.addEventListener('error', () => (streamErrors += 1));
  for (const type of EVENT_TYPES) {
    stream.addEventListener(type, (message) => {
      const receivedAt = Date.now();
      const at = writtenAt(message.lastEventId);
      if (at >= windowStart) sseLatencies.push(receivedAt - at);
      if (type === 'task.complete' || type === 'task.failed') {
        const taskId = (JSON.parse(message.data) as { task_id?: string }).task_id;
        if (taskId) {
          viaSse.add(taskId);
          completed(taskId, { at, type });
        }
      }
    });
  }

  const runs: EndToEndRun[] = [];
  try {
    await deployAgents(api);
    await waitFor('the SSE stream to open', async () => (stream.readyState === EventSource.OPEN ? true : undefined), 10_000);
    // One untimed task first, so that every function on the path has loaded (cold starts are not the steady state).
    if (!(await completionOf(await createTask(api, workload)))) throw new Error('The warm-up task did not complete.');
    for (const producers of config.producers) {
      progress(`end-to-end: ${producers} producer(s) for ${config.endToEndSeconds} s`);
      sseLatencies = [];
      webhookLatencies = [];
      errors.length = 0;
      streamErrors = 0;
      const createToComplete: number[] = [];
      const created: string[] = [];
      windowStart = Date.now();
      const stopsAt = windowStart + config.endToEndSeconds * 1000;
      const producer = async () => {
        while (Date.now() < stopsAt) {
          const started = Date.now();
          let taskId: string;
          try {
            taskId = await createTask(api, workload);
          } catch (error) {
            errors.push(String(error));
            continue;
          }
          created.push(taskId);
          const completion = await completionOf(taskId);
          if (!completion) errors.push(`task ${taskId} did not end within ${TASK_TIMEOUT_MS} ms`);
          else if (completion.type !== 'task.complete') errors.push(`task ${taskId} ended with ${completion.type}`);
          else createToComplete.push(completion.at - started);
        }
      };
      await Promise.all(Array.from({ length: producers }, () => producer()));
      // Every task's outcome must reach both the stream and the webhook receiver.
      const delivered = () => created.every((id) => viaSse.has(id) && viaWebhook.has(id));
      await waitFor('outcomes to reach SSE and webhook', async () => (delivered() ? true : undefined), DRAIN_MS).catch(() => undefined);
      for (const id of created) {
        if (!viaSse.has(id)) errors.push(`task ${id}: no task.complete frame on the SSE stream`);
        if (!viaWebhook.has(id)) errors.push(`task ${id}: no task.complete webhook`);
      }
      if (streamErrors > 0) errors.push(`the SSE stream reported ${streamErrors} error(s) (reconnects)`);
      runs.push({
        producers,
        seconds: config.endToEndSeconds,
        tasksCreated: created.length,
        tasksCompleted: createToComplete.length,
        errors: errors.length,
        errorSamples: errors.slice(0, 5),
        createToComplete: summarize(createToComplete),
        sse: summarize(sseLatencies),
        webhook: summarize(webhookLatencies),
      });
    }
  } finally {
    stream.close();
    await listener.close();
    await runtime.stop();
    await engines.stop();
  }
  return runs;
}
