import { renderApproval } from '#shared/domain/approval';
import { systemClock } from '#shared/domain/clock';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { requestWorkerApproval } from '#shared/services/worker-approvals';
import { taskParams } from '#functions/tasks/schemas';
import { workerApprovalBody } from '#functions/tasks/worker-schemas';

/** POST /tasks/{task_id}/approvals: the worker asks a person first; the task waits and the lease ends. */
export const handler = routeHandler({ params: taskParams, body: workerApprovalBody }, async ({ caller, params, body }) => {
  const approval = await requestWorkerApproval(caller, params.task_id, body);
  return jsonResponse(201, renderApproval(approval, systemClock.now()), { Location: `/v1/approvals/${approval.approval_id}` });
});
