import { cloudFrontFinding } from '#shared/preflight/cloudfront-check';
import type { Finding, Verdict } from '#shared/preflight/finding';
import { inboundMailFinding, type InboundMailOption } from '#shared/preflight/inbound-mail-check';
import { lambdaConcurrencyFinding } from '#shared/preflight/lambda-concurrency-check';
import type { AccountReadings } from '#shared/preflight/readings';
import { sesSendingFinding } from '#shared/preflight/ses-sending-check';

/** The preflight's exit codes: what a script running it before `cdk deploy` branches on. */
export const PREFLIGHT_EXIT = { clear: 0, blocked: 1, usage: 2, unchecked: 3 } as const;

export interface PreflightOptions {
  inboundMail: InboundMailOption;
}

export interface PreflightReport {
  region: string;
  findings: Finding[];
  /** 0 nothing blocks (requests may remain), 1 a blocker, 3 no blocker but a check could not run. */
  exitCode: number;
}

/** Every check over what was read from the account, in the order docs/deploying.md takes them. */
export function preflightReport(readings: AccountReadings, options: PreflightOptions): PreflightReport {
  const findings = [
    lambdaConcurrencyFinding(readings.lambda, readings.region),
    sesSendingFinding(readings.ses, readings.region),
    inboundMailFinding(readings.region, options.inboundMail),
    cloudFrontFinding(readings.cloudFront),
  ];
  const has = (verdict: Verdict) => findings.some((finding) => finding.verdict === verdict);
  const exitCode = has('blocker') ? PREFLIGHT_EXIT.blocked : has('unchecked') ? PREFLIGHT_EXIT.unchecked : PREFLIGHT_EXIT.clear;
  return { region: readings.region, findings, exitCode };
}
