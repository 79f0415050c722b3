import { uncheckedFinding, type Finding } from '#shared/preflight/finding';
import type { CloudFrontDistributions, Reading } from '#shared/preflight/readings';

/** What CloudFront answers a new account that AWS has not yet verified for CloudFront. */
const UNVERIFIED = /must be verified/i;

/**
 * CloudFront has no read-only "may this account create a distribution" call: a new account can be
 * refused its first distribution ("Your account must be verified before you can add new CloudFront
 * resources") only when it creates one. ListDistributions (one item) is the cheapest read that
 * tells the two cases apart as far as they can be: an account that already has a distribution has
 * been verified; one with none may not be, which the deploy would find out after some minutes.
 */
export function cloudFrontFinding(reading: Reading<CloudFrontDistributions>): Finding {
  if (!reading.ok) {
    if (UNVERIFIED.test(reading.error.message)) {
      return {
        check: 'cloudfront',
        verdict: 'blocker',
        summary: `CloudFront refuses this account until AWS verifies it: ${reading.error.message}`,
        action: 'Open a case with AWS Support (Account and billing) quoting that message, and deploy once the account is verified.',
      };
    }
    return uncheckedFinding('cloudfront', "the account's CloudFront distributions", reading.error);
  }
  const list = reading.answer.DistributionList;
  const count = list?.Items?.length ?? list?.Quantity ?? 0;
  if (count > 0) return { check: 'cloudfront', verdict: 'pass', summary: 'CloudFront: the account already runs distributions, so it may create the dashboard\'s.' };
  return {
    check: 'cloudfront',
    verdict: 'note',
    summary: 'CloudFront: the account has no distribution yet. A new account can be refused its first one until AWS verifies it, which no read-only call shows.',
    action: 'If the deploy stops with "Your account must be verified before you can add new CloudFront resources", open a case with AWS Support quoting it, then deploy again.',
  };
}
