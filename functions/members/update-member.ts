import { renderMember } from '#shared/domain/member';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { changeMemberRole } from '#shared/services/members';
import { memberParams, updateMemberBody } from '#functions/members/schemas';

/** PATCH /members/{user_id} {role}: the member with their new role; the last admin keeps theirs (409). */
export const handler = routeHandler({ params: memberParams, body: updateMemberBody }, async ({ caller, params, body }) =>
  jsonResponse(200, renderMember(await changeMemberRole(caller, params.user_id, body.role))),
);
