import { MINIMUM_ACCOUNT_CONCURRENCY } from '#shared/config/lambda-concurrency';
import { uncheckedFinding, type Finding } from '#shared/preflight/finding';
import type { LambdaAccountSettings, Reading } from '#shared/preflight/readings';

/** Service Quotas' code of Lambda's "Concurrent executions" quota. */
export const LAMBDA_CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

/** The command that asks Service Quotas for an account concurrency of `value` in `region`. */
export function quotaIncreaseCommand(value: number, region: string): string {
  return `aws service-quotas request-service-quota-increase --service-code lambda --quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE} --desired-value ${value} --region ${region}`;
}

/**
 * Gatehouse's functions reserve nothing: they share the account's unreserved concurrency, which must
 * hold at least MINIMUM_ACCOUNT_CONCURRENCY (every queue consumer at its cap, and the API's headroom).
 * New accounts often start at 10. What other functions of the account reserve is not there for Gatehouse.
 */
export function lambdaConcurrencyFinding(reading: Reading<LambdaAccountSettings>, region: string): Finding {
  if (!reading.ok) return uncheckedFinding('lambda-concurrency', "the account's Lambda settings", reading.error);
  const total = reading.answer.AccountLimit?.ConcurrentExecutions;
  const unreserved = reading.answer.AccountLimit?.UnreservedConcurrentExecutions ?? total;
  if (total === undefined || unreserved === undefined) {
    return uncheckedFinding('lambda-concurrency', "the account's Lambda settings", { name: 'IncompleteAnswer', message: 'GetAccountSettings gave no AccountLimit.ConcurrentExecutions' });
  }
  if (total < MINIMUM_ACCOUNT_CONCURRENCY) {
    return {
      check: 'lambda-concurrency',
      verdict: 'blocker',
      summary: `Lambda concurrency quota is ${total} in ${region}; Gatehouse needs at least ${MINIMUM_ACCOUNT_CONCURRENCY}.`,
      action: `Request a quota increase to at least ${MINIMUM_ACCOUNT_CONCURRENCY} (Service Quotas, quota ${LAMBDA_CONCURRENCY_QUOTA_CODE}), and deploy once it is granted.`,
      command: quotaIncreaseCommand(MINIMUM_ACCOUNT_CONCURRENCY, region),
    };
  }
  if (unreserved < MINIMUM_ACCOUNT_CONCURRENCY) {
    const reserved = total - unreserved;
    return {
      check: 'lambda-concurrency',
      verdict: 'blocker',
      summary: `Lambda concurrency quota is ${total} in ${region}, but other functions reserve ${reserved}: ${unreserved} unreserved is left, and Gatehouse needs at least ${MINIMUM_ACCOUNT_CONCURRENCY}.`,
      action: `Request a quota of at least ${reserved + MINIMUM_ACCOUNT_CONCURRENCY}, or lower the other functions' reserved concurrency.`,
      command: quotaIncreaseCommand(reserved + MINIMUM_ACCOUNT_CONCURRENCY, region),
    };
  }
  return { check: 'lambda-concurrency', verdict: 'pass', summary: `Lambda concurrency: ${unreserved} unreserved of a quota of ${total} in ${region} (Gatehouse needs ${MINIMUM_ACCOUNT_CONCURRENCY}).` };
}
