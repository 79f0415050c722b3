import { eventRepository } from '#shared/adapters/dynamodb/event-repository';
import type { TaskStatus } from '#shared/domain/task-state';
import { listScanFindings } from '#shared/services/findings';
import { createTask as createTaskDirectly } from '#shared/services/task-creation';
import { getTask, listTasks } from '#shared/services/tasks';
import { listEventsQuery } from '#functions/events/schemas';
import { listFindingsQuery } from '#functions/scans/schemas';
import { createTaskBody, listTasksQuery } from '#functions/tasks/schemas';
import { startTestSite } from '../../test/support/test-site-server';
import { apiClient } from '../api-client';
import { startBenchEngines, startBenchRuntime } from '../bench-runtime';
import type { BenchConfig } from '../config';
import { closedLoop } from '../load';
import { progress } from '../progress';
import type { RouteResult } from '../results';
import { createProject, createScan, deployAgents, FULL_AUDIT, scanEnded, seedTasks, workloadOf } from '../workload';

/** Tasks in the tenant before measuring, so list pages are full and reads hit a real partition. */
const SEEDED_TASKS = 40;

interface RouteBench {
  route: string;
  api: () => Promise<void>;
  /** The same service or repository call the handler makes, without HTTP, gateway or authorizer. */
  floor: () => Promise<void>;
}

/**
 * Per route: requests/s and latency through the local API (HTTP, gateway, authorizer, handler)
 * beside the floor, the same DynamoDB calls made directly. The runtime runs without workers while
 * measuring, so queued tasks do not compete for the CPU the API is measured on.
 */
export async function run(config: BenchConfig): Promise<RouteResult[]> {
  const engines = await startBenchEngines();
  const site = await startTestSite();
  try {
    progress('routes: seeding tasks, events and a scan');
    const workload = workloadOf(FULL_AUDIT);
    const setup = await startBenchRuntime({ engines, name: 'bench-routes', workers: true, workerConcurrency: config.workerConcurrency });
    const tenant = { tenantId: setup.tenantId, key: setup.key };
    let taskIds: string[];
    let scanId: string;
    try {
      const api = apiClient(setup.baseUrl, setup.key);
      await deployAgents(api);
      taskIds = await seedTasks(api, workload, SEEDED_TASKS);
      scanId = await createScan(api, await createProject(api, site.url));
      await scanEnded(api, scanId);
    } finally {
      await setup.stop();
    }

    const runtime = await startBenchRuntime({ engines, name: 'bench-routes', workers: false, eventFanOut: false, workerConcurrency: config.workerConcurrency, tenant });
    const client = apiClient(runtime.baseUrl, runtime.key);
    const taskBody = { agent: workload.agent, task_type: workload.taskType, input: workload.input };
    const parsedBody = createTaskBody.parse(taskBody) as { agent: string; task_type: string; input: Record<string, unknown>; priority: 'low' | 'normal' | 'high' };
    const taskQuery = listTasksQuery.parse({});
    const eventQuery = listEventsQuery.parse({});
    const findingQuery = listFindingsQuery.parse({});
    const someTask = taskIds[0];
    const routes: RouteBench[] = [
      {
        route: 'POST /tasks',
        api: () => client.call('POST', '/tasks', { body: taskBody, expect: 202 }).then(() => undefined),
        floor: () => createTaskDirectly(tenant.tenantId, { shape: 'slug', agentReference: parsedBody.agent, task_type: parsedBody.task_type, input: parsedBody.input, priority: parsedBody.priority, trigger: { type: 'api' } }).then(() => undefined),
      },
      {
        route: 'GET /tasks/{task_id}',
        api: () => client.call('GET', `/tasks/${someTask}`).then(() => undefined),
        floor: () => getTask(tenant.tenantId, someTask).then(() => undefined),
      },
      {
        route: 'GET /tasks',
        api: () => client.call('GET', '/tasks').then(() => undefined),
        floor: () => listTasks(tenant.tenantId, { limit: taskQuery.limit, status: taskQuery.status as TaskStatus | undefined }).then(() => undefined),
      },
      {
        route: 'GET /events',
        api: () => client.call('GET', '/events').then(() => undefined),
        floor: () => eventRepository.list(tenant.tenantId, { limit: eventQuery.limit, types: eventQuery.type }).then(() => undefined),
      },
      {
        route: 'GET /scans/{scan_id}/findings',
        api: () => client.call('GET', `/scans/${scanId}/findings`).then(() => undefined),
        floor: () => listScanFindings(tenant.tenantId, scanId, { limit: findingQuery.limit }).then(() => undefined),
      },
    ];

    const results: RouteResult[] = [];
    try {
      for (const route of routes) {
        const runs: RouteResult['runs'] = [];
        for (const concurrency of config.routeConcurrency) {
          progress(`routes: ${route.route} at ${concurrency} concurrent clients`);
          // Floor first, API second, each with a short warm-up (handlers load, connections open).
          const floor = await closedLoop(() => route.floor(), { concurrency, seconds: config.routeSeconds, warmupSeconds: 1 });
          const apiRun = await closedLoop(() => route.api(), { concurrency, seconds: config.routeSeconds, warmupSeconds: 1 });
          runs.push({ concurrency, api: apiRun, floor });
        }
        results.push({ route: route.route, runs });
      }
    } finally {
      await runtime.stop();
    }
    return results;
  } finally {
    await site.close();
    await engines.stop();
  }
}
