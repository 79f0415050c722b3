import { renderArtifact } from '#shared/domain/artifact';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listTaskArtifacts } from '#shared/services/artifacts';
import { taskParams } from '#functions/tasks/schemas';

export const handler = routeHandler({ params: taskParams }, async ({ tenantId, params }) => {
  const artifacts = await listTaskArtifacts(tenantId, params.task_id);
  return jsonResponse(200, { task_id: params.task_id, artifacts: artifacts.map(renderArtifact) });
});
