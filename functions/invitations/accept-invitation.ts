import { renderMember } from '#shared/domain/member';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { acceptInvitation } from '#shared/services/invitations';
import { invitationParams } from '#functions/invitations/schemas';

/** POST /me/invitations/{tenant_id}/accept: the person joins the tenant; their next request acts as its member. */
export const handler = routeHandler({ params: invitationParams }, async ({ caller, params }) => jsonResponse(200, renderMember(await acceptInvitation(caller, params.tenant_id))));
