import { expireApproval } from '#shared/services/approvals';
import { expiryEvent } from '#functions/approvals/schemas';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';

/**
 * Target of an approval's one-time schedule (EventBridge Scheduler on AWS): denies the approval
 * if it is still pending. Running late, twice, or after a resolution changes nothing.
 */
export const handler = observedHandler(async (event: unknown): Promise<void> => {
  const parsed = expiryEvent.safeParse(event);
  if (!parsed.success) {
    logger.error('malformed expiry schedule payload dropped');
    return;
  }
  addLogContext({ tenant_id: parsed.data.tenant_id, approval_id: parsed.data.approval_id });
  await expireApproval(parsed.data.tenant_id, parsed.data.approval_id);
});
