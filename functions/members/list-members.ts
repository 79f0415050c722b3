import { renderMember } from '#shared/domain/member';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listMembers } from '#shared/services/members';
import { listMembersQuery } from '#functions/members/schemas';

/** GET /members: the tenant's members, oldest first. */
export const handler = routeHandler({ query: listMembersQuery }, async ({ tenantId, query }) => {
  const { members, nextCursor } = await listMembers(tenantId, query);
  return jsonResponse(200, { members: members.map(renderMember), next_cursor: nextCursor });
});
