import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { deleteArtifact } from '#shared/services/artifacts';
import { artifactParams } from '#functions/artifacts/schemas';

/** DELETE /artifacts/{id} → 204; afterwards the artifact answers 404. */
export const handler = routeHandler({ params: artifactParams }, async ({ tenantId, params }) => {
  await deleteArtifact(tenantId, params.artifact_id);
  return emptyResponse(204);
});
