import { directSource, renderTask } from '#shared/domain/task';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { createTask } from '#shared/services/task-creation';
import { createTaskBody } from '#functions/tasks/schemas';

/** POST /tasks: slug shape → 202 queued; identifier shape → 201 pending. */
export const handler = routeHandler({ body: createTaskBody }, async ({ tenantId, caller, body }) => {
  const slugShaped = 'agent' in body;
  const task = await createTask(tenantId, {
    shape: slugShaped ? 'slug' : 'id',
    agentReference: slugShaped ? body.agent : body.agent_id,
    task_type: body.task_type,
    input: body.input,
    priority: body.priority,
    session_id: body.session_id,
    trigger: directSource(caller.principal),
  });
  return jsonResponse(slugShaped ? 202 : 201, renderTask(task), { Location: `/v1/tasks/${task.task_id}` });
});
