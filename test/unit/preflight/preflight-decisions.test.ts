import { describe, expect, it } from 'vitest';
import { MINIMUM_ACCOUNT_CONCURRENCY } from '#shared/config/lambda-concurrency';
import { SES_RECEIVING_REGIONS } from '#shared/config/ses-receiving';
import { cloudFrontFinding } from '#shared/preflight/cloudfront-check';
import { inboundMailFinding } from '#shared/preflight/inbound-mail-check';
import { lambdaConcurrencyFinding } from '#shared/preflight/lambda-concurrency-check';
import { PREFLIGHT_EXIT, preflightReport } from '#shared/preflight/preflight';
import type { AccountReadings } from '#shared/preflight/readings';
import { reportText } from '#shared/preflight/report-text';
import { sesSendingFinding } from '#shared/preflight/ses-sending-check';
import { readingOf } from '../../support/preflight-answers';

describe('preflight decisions over recorded AWS answers', () => {
  describe('Lambda concurrency (GetAccountSettings)', () => {
    it("blocks a new account's quota of 10 and gives the exact Service Quotas request for the minimum", () => {
      const finding = lambdaConcurrencyFinding(readingOf('lambda-new-account'), 'eu-west-1');

      expect(finding.verdict).toBe('blocker');
      expect(finding.summary).toBe(`Lambda concurrency quota is 10 in eu-west-1; Gatehouse needs at least ${MINIMUM_ACCOUNT_CONCURRENCY}.`);
      expect(finding.command).toBe(`aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value ${MINIMUM_ACCOUNT_CONCURRENCY} --region eu-west-1`);
    });

    it('blocks a large quota that other functions have reserved down below the minimum, asking for the reserved share on top', () => {
      const finding = lambdaConcurrencyFinding(readingOf('lambda-mostly-reserved'), 'us-east-1');

      expect(finding.verdict).toBe('blocker');
      expect(finding.summary).toContain('other functions reserve 90: 60 unreserved is left');
      expect(finding.command).toContain(`--desired-value ${90 + MINIMUM_ACCOUNT_CONCURRENCY} `);
    });

    it('passes the default quota of 1000', () => {
      const finding = lambdaConcurrencyFinding(readingOf('lambda-default-quota'), 'us-east-1');

      expect(finding.verdict).toBe('pass');
      expect(finding.command).toBeUndefined();
    });

    it('reports a denied call as unchecked, naming the IAM action the credentials lack', () => {
      const finding = lambdaConcurrencyFinding(readingOf('lambda-access-denied'), 'us-east-1');

      expect(finding.verdict).toBe('unchecked');
      expect(finding.summary).toContain('AccessDeniedException');
      expect(finding.action).toContain('lambda:GetAccountSettings');
    });
  });

  describe('SES sending (GetAccount)', () => {
    it('asks for production access while the account is in the sandbox, with the command', () => {
      const finding = sesSendingFinding(readingOf('ses-sandbox'), 'eu-west-1');

      expect(finding.verdict).toBe('request');
      expect(finding.summary).toContain('sandbox in eu-west-1 (200 a day, 1 a second');
      expect(finding.command).toBe('aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL --website-url https://example.com --contact-language EN --region eu-west-1');
    });

    it('does not ask again while a production access request is pending, and names its case', () => {
      const finding = sesSendingFinding(readingOf('ses-sandbox-review-pending'), 'eu-west-1');

      expect(finding.verdict).toBe('note');
      expect(finding.command).toBeUndefined();
      expect(finding.summary).toContain('(case 172839465100) is pending');
    });

    it('blocks when SES has shut sending down', () => {
      expect(sesSendingFinding(readingOf('ses-shutdown'), 'eu-west-1')).toMatchObject({ verdict: 'blocker', summary: expect.stringContaining('enforcement status SHUTDOWN') });
    });

    it('passes production access, with its quota', () => {
      expect(sesSendingFinding(readingOf('ses-production'), 'eu-west-1')).toMatchObject({ verdict: 'pass', summary: 'SES has production access in eu-west-1: 50000 a day, 14 a second.' });
    });
  });

  describe('inbound mail (gatehouse:inboundMail against SES receiving regions)', () => {
    it('blocks on in a region without SES receiving, pointing at -c gatehouse:inboundMail=off', () => {
      const finding = inboundMailFinding('eu-central-2', 'on');

      expect(finding.verdict).toBe('blocker');
      expect(finding.action).toContain('-c gatehouse:inboundMail=off');
    });

    it('lets auto and off deploy where SES does not receive, auto with a note that mail triggers are unavailable', () => {
      expect(inboundMailFinding('eu-central-2', 'auto')).toMatchObject({ verdict: 'note', summary: expect.stringContaining('mail triggers are unavailable') });
      expect(inboundMailFinding('me-central-1', 'off').verdict).toBe('pass');
    });

    it('reminds of the MX record and the rule set activation where SES receives, unless off', () => {
      for (const region of SES_RECEIVING_REGIONS) expect(inboundMailFinding(region, 'on')).toMatchObject({ verdict: 'note', action: expect.stringContaining('MX record') });
      expect(inboundMailFinding('eu-west-1', 'off').verdict).toBe('pass');
    });
  });

  describe('CloudFront (ListDistributions)', () => {
    it('passes an account that already runs a distribution', () => {
      expect(cloudFrontFinding(readingOf('cloudfront-one-distribution')).verdict).toBe('pass');
    });

    it('warns an account without any that its first one may need verification, quoting the error to look for', () => {
      const finding = cloudFrontFinding(readingOf('cloudfront-no-distributions'));

      expect(finding.verdict).toBe('note');
      expect(finding.action).toContain('Your account must be verified before you can add new CloudFront resources');
    });

    it('blocks an account CloudFront says is not verified', () => {
      expect(cloudFrontFinding(readingOf('cloudfront-account-unverified'))).toMatchObject({ verdict: 'blocker', action: expect.stringContaining('AWS Support') });
    });
  });

  describe('the report', () => {
    const readings = (lambda: string, ses: string, cloudFront: string, region = 'eu-west-1'): AccountReadings => ({ region, lambda: readingOf(lambda), ses: readingOf(ses), cloudFront: readingOf(cloudFront) });

    it('exits 1 for a new account (quota 10) and lists every finding in the documented order', () => {
      const report = preflightReport(readings('lambda-new-account', 'ses-sandbox', 'cloudfront-no-distributions'), { inboundMail: 'auto' });

      expect(report.exitCode).toBe(PREFLIGHT_EXIT.blocked);
      expect(report.findings.map(({ check, verdict }) => `${check}:${verdict}`)).toEqual(['lambda-concurrency:blocker', 'ses-sending:request', 'inbound-mail:note', 'cloudfront:note']);
    });

    it('exits 0 when only requests and notes remain, and 3 when nothing blocks but a check could not run', () => {
      expect(preflightReport(readings('lambda-default-quota', 'ses-sandbox', 'cloudfront-no-distributions'), { inboundMail: 'auto' }).exitCode).toBe(PREFLIGHT_EXIT.clear);
      expect(preflightReport(readings('lambda-access-denied', 'ses-production', 'cloudfront-one-distribution'), { inboundMail: 'auto' }).exitCode).toBe(PREFLIGHT_EXIT.unchecked);
    });

    it('prints each finding with its verdict, action and command, and a closing count', () => {
      const text = reportText(preflightReport(readings('lambda-new-account', 'ses-sandbox', 'cloudfront-one-distribution'), { inboundMail: 'off' }));

      expect(text).toMatch(/^Gatehouse preflight for eu-west-1\n/);
      expect(text).toContain(`BLOCKER   lambda-concurrency: Lambda concurrency quota is 10 in eu-west-1; Gatehouse needs at least ${MINIMUM_ACCOUNT_CONCURRENCY}.`);
      expect(text).toContain('          $ aws service-quotas request-service-quota-increase');
      expect(text).toContain('REQUEST   ses-sending:');
      expect(text.trimEnd().split('\n').at(-1)).toBe('1 blocker(s), 1 request(s), 0 unchecked: deal with the blockers before deploying.');
    });
  });
});
