/**
 * What `npm run preflight` reads from the account, in the shape the AWS APIs answer (the SDK's
 * output types, only the fields the checks use), so recorded answers can be replayed in tests.
 * No AWS SDK here: the adapters in shared/adapters/preflight make the calls.
 */

/** Lambda GetAccountSettings. */
export interface LambdaAccountSettings {
  AccountLimit?: { ConcurrentExecutions?: number; UnreservedConcurrentExecutions?: number };
}

/** SES v2 GetAccount. */
export interface SesAccount {
  ProductionAccessEnabled?: boolean;
  SendingEnabled?: boolean;
  /** HEALTHY, PROBATION or SHUTDOWN. */
  EnforcementStatus?: string;
  SendQuota?: { Max24HourSend?: number; MaxSendRate?: number; SentLast24Hours?: number };
  /** The production access request, once one is made: Status PENDING, GRANTED, DENIED or FAILED. */
  Details?: { ReviewDetails?: { Status?: string; CaseId?: string } };
}

/** CloudFront ListDistributions (asked for one item: only whether the account has any). */
export interface CloudFrontDistributions {
  DistributionList?: { Quantity?: number; Items?: unknown[] };
}

/** An API's answer, or why there is none (the SDK error's name and message). */
export type Reading<T> = { ok: true; answer: T } | { ok: false; error: { name: string; message: string } };

export interface AccountReadings {
  /** The region the stack would be deployed to. */
  region: string;
  lambda: Reading<LambdaAccountSettings>;
  ses: Reading<SesAccount>;
  cloudFront: Reading<CloudFrontDistributions>;
}
