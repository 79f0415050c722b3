import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listMyInvitations } from '#shared/services/invitations';

/** GET /me/invitations: the signed-in person's pending invitations (a small list: one per inviting tenant). */
export const handler = routeHandler({}, async ({ caller }) => jsonResponse(200, { invitations: await listMyInvitations(caller), next_cursor: null }));
