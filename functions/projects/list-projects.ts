import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listProjects } from '#shared/services/scans';
import { renderProject } from '#functions/projects/render';
import { listQuery } from '#functions/scans/schemas';

export const handler = routeHandler({ query: listQuery }, async ({ tenantId, query }) => {
  const page = await listProjects(tenantId, query);
  return jsonResponse(200, { data: page.projects.map(renderProject), has_more: page.nextCursor !== null, next_cursor: page.nextCursor });
});
