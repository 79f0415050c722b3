import { renderArtifact } from '#shared/domain/artifact';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { emitWorkerArtifact } from '#shared/services/worker-artifacts';
import { taskParams } from '#functions/tasks/schemas';
import { workerArtifactBody } from '#functions/tasks/worker-schemas';

/** POST /tasks/{task_id}/artifacts: a worker's artifact, of a type its manifest declares. */
export const handler = routeHandler({ params: taskParams, body: workerArtifactBody }, async ({ caller, params, body }) => {
  const artifact = await emitWorkerArtifact(caller, params.task_id, body);
  return jsonResponse(201, renderArtifact(artifact), { Location: `/v1/artifacts/${artifact.artifact_id}` });
});
