import { renderApproval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { getApproval } from '#shared/services/approvals';
import { approvalParams } from '#functions/approvals/schemas';

export const handler = routeHandler({ params: approvalParams }, async ({ tenantId, params }) =>
  jsonResponse(200, renderApproval(await getApproval(tenantId, params.approval_id), systemClock.now())),
);
