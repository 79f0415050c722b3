import { renderTask } from '#shared/domain/task';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { cancelTask } from '#shared/services/tasks';
import { taskParams } from '#functions/tasks/schemas';

/** POST /tasks/{id}/cancel: the identifier shape's cancel; answers with the cancelled task. */
export const handler = routeHandler({ params: taskParams }, async ({ tenantId, params }) => jsonResponse(200, renderTask(await cancelTask(tenantId, params.task_id))));
