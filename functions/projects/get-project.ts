import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getProject } from '#shared/services/scans';
import { renderProject } from '#functions/projects/render';
import { projectParams } from '#functions/scans/schemas';

export const handler = routeHandler({ params: projectParams }, async ({ tenantId, params }) => jsonResponse(200, renderProject(await getProject(tenantId, params.project_id))));
