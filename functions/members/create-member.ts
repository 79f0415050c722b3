import { renderMember } from '#shared/domain/member';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { addMember } from '#shared/services/members';
import { createMemberBody } from '#functions/members/schemas';

/** POST /members {email, role} → 201 with the invited member; the person joins at their first sign-in. */
export const handler = routeHandler({ body: createMemberBody }, async ({ caller, body }) => {
  const record = await addMember(caller, body);
  return jsonResponse(201, renderMember(record), { Location: `/v1/members/${record.user_id}` });
});
