import { canonicalAgentFilter } from '#shared/agents/directory';
import { renderApproval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { listApprovals } from '#shared/services/approvals';
import { listApprovalsQuery } from '#functions/approvals/schemas';

/** GET /approvals: by status (default pending), agent and task; newest first, cursor-paged. */
export const handler = routeHandler({ query: listApprovalsQuery }, async ({ tenantId, query }) => {
  const agent = query.agent ? canonicalAgentFilter(query.agent) : undefined;
  const page = await listApprovals(tenantId, { status: query.status, agent, taskId: query.task_id, limit: query.limit, cursor: query.cursor });
  const now = systemClock.now();
  return jsonResponse(200, { approvals: page.approvals.map((approval) => renderApproval(approval, now)), next_cursor: page.nextCursor, has_more: page.nextCursor !== null });
});
