import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { heartbeat } from '#shared/services/worker-tasks';
import { taskParams } from '#functions/tasks/schemas';
import { heartbeatBody } from '#functions/tasks/worker-schemas';

/** POST /tasks/{task_id}/heartbeat: extends the worker's lease, records progress, says whether the task was cancelled. */
export const handler = routeHandler({ params: taskParams, body: heartbeatBody }, async ({ caller, params, body }) => jsonResponse(200, await heartbeat(caller, params.task_id, body)));
