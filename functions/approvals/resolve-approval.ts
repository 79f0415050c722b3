import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { resolveApproval } from '#shared/services/approvals';
import { approvalParams, resolveApprovalBody } from '#functions/approvals/schemas';

/** POST /approvals/{id}/resolve → 200 {approval_id, decision, resolved_at}; 409 once resolved. */
export const handler = routeHandler({ params: approvalParams, body: resolveApprovalBody }, async ({ tenantId, caller, params, body }) => {
  const approval = await resolveApproval(tenantId, params.approval_id, body, caller.principal);
  return jsonResponse(200, { approval_id: approval.approval_id, decision: approval.decision, resolved_at: approval.resolved_at, resolved_by: approval.resolved_by, status: approval.status, action: approval.action });
});
