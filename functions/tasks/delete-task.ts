import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { cancelTask } from '#shared/services/tasks';
import { taskParams } from '#functions/tasks/schemas';

/** DELETE /tasks/{id}: the slug shape's cancel; 409 once the task has ended. */
export const handler = routeHandler({ params: taskParams }, async ({ tenantId, params }) => {
  const task = await cancelTask(tenantId, params.task_id);
  return jsonResponse(200, { cancelled: true, task_id: task.task_id, status: task.status });
});
