import { emptyResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { declineInvitation } from '#shared/services/invitations';
import { invitationParams } from '#functions/invitations/schemas';

/** POST /me/invitations/{tenant_id}/decline: the invitation is withdrawn; 204. */
export const handler = routeHandler({ params: invitationParams }, async ({ caller, params }) => {
  await declineInvitation(caller, params.tenant_id);
  return emptyResponse(204);
});
