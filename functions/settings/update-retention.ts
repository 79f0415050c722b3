import { renderRetention } from '#shared/domain/retention';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { updateRetention } from '#shared/services/retention';
import { noQuery, updateRetentionBody } from '#functions/settings/schemas';

/** PATCH /settings/retention {retention_days}: 400 `retention_not_allowed_on_plan` outside the plan's range. */
export const handler = routeHandler({ query: noQuery, body: updateRetentionBody }, async ({ tenantId, caller, body }) =>
  jsonResponse(200, renderRetention(await updateRetention(tenantId, body.retention_days, caller.principal))),
);
