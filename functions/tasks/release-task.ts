import { renderTask } from '#shared/domain/task';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { releaseTask } from '#shared/services/worker-tasks';
import { taskParams } from '#functions/tasks/schemas';
import { leaseBody } from '#functions/tasks/worker-schemas';

/** POST /tasks/{task_id}/release: the worker gives the task back (shutting down); it waits for the next claim. */
export const handler = routeHandler({ params: taskParams, body: leaseBody }, async ({ caller, params, body }) => jsonResponse(200, renderTask(await releaseTask(caller, params.task_id, body.lease_id))));
