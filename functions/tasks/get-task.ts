import { renderTask } from '#shared/domain/task';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getTask } from '#shared/services/tasks';
import { taskParams } from '#functions/tasks/schemas';

export const handler = routeHandler({ params: taskParams }, async ({ tenantId, params }) => jsonResponse(200, renderTask(await getTask(tenantId, params.task_id))));
