import { expireApproval } from '#shared/services/approvals';
import { expiryEvent } from '#functions/approvals/schemas';

/**
 * Target of an approval's one-time schedule (EventBridge Scheduler on AWS): denies the approval
 * if it is still pending. Running late, twice, or after a resolution changes nothing.
 */
export const handler = async (event: unknown): Promise<void> => {
  const parsed = expiryEvent.safeParse(event);
  if (!parsed.success) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'malformed expiry schedule payload dropped' }));
    return;
  }
  await expireApproval(parsed.data.tenant_id, parsed.data.approval_id);
};
