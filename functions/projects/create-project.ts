import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { createProject } from '#shared/services/scans';
import { renderProject } from '#functions/projects/render';
import { createProjectBody } from '#functions/scans/schemas';

export const handler = routeHandler({ body: createProjectBody }, async ({ tenantId, body }) => {
  const project = await createProject(tenantId, body);
  return jsonResponse(201, renderProject(project), { Location: `/v1/projects/${project.project_id}` });
});
