import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { updateProject } from '#shared/services/scans';
import { renderProject } from '#functions/projects/render';
import { projectParams, updateProjectBody } from '#functions/scans/schemas';

export const handler = routeHandler({ params: projectParams, body: updateProjectBody }, async ({ tenantId, params, body }) => jsonResponse(200, renderProject(await updateProject(tenantId, params.project_id, body))));
