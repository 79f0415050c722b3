import { renderArtifact } from '#shared/domain/artifact';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getArtifact } from '#shared/services/artifacts';
import { artifactParams } from '#functions/artifacts/schemas';

export const handler = routeHandler({ params: artifactParams }, async ({ tenantId, params }) => jsonResponse(200, renderArtifact(await getArtifact(tenantId, params.artifact_id))));
