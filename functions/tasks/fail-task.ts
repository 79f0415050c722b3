import { renderTask } from '#shared/domain/task';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { failTask } from '#shared/services/worker-tasks';
import { taskParams } from '#functions/tasks/schemas';
import { workerFailBody } from '#functions/tasks/worker-schemas';

/** POST /tasks/{task_id}/fail: the worker gave up, with its error code and message. */
export const handler = routeHandler({ params: taskParams, body: workerFailBody }, async ({ caller, params, body }) => jsonResponse(200, renderTask(await failTask(caller, params.task_id, body.lease_id, body.error))));
