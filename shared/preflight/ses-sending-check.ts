import { uncheckedFinding, type Finding } from '#shared/preflight/finding';
import type { Reading, SesAccount } from '#shared/preflight/readings';

/** The command that asks SES for production access (out of the sandbox) in `region`. */
export function sandboxExitCommand(region: string): string {
  return `aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url https://example.com --contact-language EN --region ${region}`;
}

/**
 * Approved mail goes out through SES in the stack's region. Paused sending (SendingEnabled false,
 * or an account SES shut down) stops it outright; the sandbox lets it reach verified addresses
 * only, at 200 a day, so production access is to be requested unless a request is already pending.
 */
export function sesSendingFinding(reading: Reading<SesAccount>, region: string): Finding {
  if (!reading.ok) return uncheckedFinding('ses-sending', "the account's SES state", reading.error);
  const account = reading.answer;
  const quota = account.SendQuota ?? {};
  const quotaText = `${quota.Max24HourSend ?? '?'} a day, ${quota.MaxSendRate ?? '?'} a second`;
  if (account.SendingEnabled === false || account.EnforcementStatus === 'SHUTDOWN') {
    return {
      check: 'ses-sending',
      verdict: 'blocker',
      summary: `SES sending is paused for this account in ${region} (enforcement status ${account.EnforcementStatus ?? 'unknown'}): approved mail cannot be sent.`,
      action: 'See the account dashboard in the SES console for why, and resolve it with AWS Support.',
    };
  }
  if (account.ProductionAccessEnabled !== true) {
    const review = account.Details?.ReviewDetails;
    if (review?.Status === 'PENDING') {
      return { check: 'ses-sending', verdict: 'note', summary: `SES is in the sandbox in ${region} (${quotaText}, verified recipients only); the production access request${review.CaseId ? ` (case ${review.CaseId})` : ''} is pending.` };
    }
    return {
      check: 'ses-sending',
      verdict: 'request',
      summary: `SES is in the sandbox in ${region} (${quotaText}, verified recipients only)${review?.Status ? `; the last production access request was ${review.Status}` : ''}: approved mail to other addresses is refused.`,
      action: 'Request production access (use your own website and describe the approved mail Gatehouse sends); the deploy works meanwhile.',
      command: sandboxExitCommand(region),
    };
  }
  if (account.EnforcementStatus === 'PROBATION') {
    return { check: 'ses-sending', verdict: 'request', summary: `SES sending in ${region} is on probation (${quotaText}).`, action: 'Bring bounces and complaints down (SES console, reputation metrics) before SES pauses sending.' };
  }
  return { check: 'ses-sending', verdict: 'pass', summary: `SES has production access in ${region}: ${quotaText}.` };
}
