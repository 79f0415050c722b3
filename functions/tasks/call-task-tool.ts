import { renderToolCall } from '#shared/domain/worker-views';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { callWorkerTool } from '#shared/services/worker-tool-calls';
import { taskParams } from '#functions/tasks/schemas';
import { workerToolCallBody } from '#functions/tasks/worker-schemas';

/** POST /tasks/{task_id}/tool-calls: a read tool through the tool proxy, recorded with the task. */
export const handler = routeHandler({ params: taskParams, body: workerToolCallBody }, async ({ caller, params, body }) => jsonResponse(200, renderToolCall(await callWorkerTool(caller, params.task_id, body))));
