import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { removeMember } from '#shared/services/members';
import { memberParams } from '#functions/members/schemas';

/** DELETE /members/{user_id} → 204; their tokens are refused once the authorizer's cached answer expires. */
export const handler = routeHandler({ params: memberParams }, async ({ caller, params }) => {
  await removeMember(caller, params.user_id);
  return emptyResponse(204);
});
