import { renderArtifact } from '#shared/domain/artifact';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listTaskArtifacts } from '#shared/services/artifacts';
import { listArtifactsQuery } from '#functions/artifacts/schemas';

/** GET /artifacts?task_id=: the artifacts of one task (the spec names no other filter). */
export const handler = routeHandler({ query: listArtifactsQuery }, async ({ tenantId, query }) => {
  const artifacts = await listTaskArtifacts(tenantId, query.task_id);
  return jsonResponse(200, { artifacts: artifacts.map(renderArtifact), next_cursor: null });
});
