import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAccount } from '#shared/adapters/preflight/account-readings';
import { MINIMUM_ACCOUNT_CONCURRENCY } from '#shared/config/lambda-concurrency';
import { PREFLIGHT_EXIT, preflightReport, type PreflightReport } from '#shared/preflight/preflight';
import { recordedAnswer } from '../support/preflight-answers';
import { startAwsAccountServer } from '../support/providers/aws-account-server';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'AKIDPREFLIGHT', AWS_SECRET_ACCESS_KEY: 'preflight-secret' };

/** `npm run preflight` as a person runs it, with the SDK's per-service endpoint variables pointing at `endpoint`. */
async function runPreflight(args: string[], endpoint: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...CREDENTIALS, AWS_EC2_METADATA_DISABLED: 'true', AWS_ENDPOINT_URL_LAMBDA: endpoint, AWS_ENDPOINT_URL_SESV2: endpoint, AWS_ENDPOINT_URL_CLOUDFRONT: endpoint };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/preflight.ts', ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('preflight against the AWS APIs (real SDK clients, loopback server speaking their protocols)', () => {
  let aws: Awaited<ReturnType<typeof startAwsAccountServer>>;
  const previous = { ...process.env };

  beforeAll(async () => {
    aws = await startAwsAccountServer({ lambda: recordedAnswer('lambda-new-account'), sesv2: recordedAnswer('ses-sandbox'), cloudfront: recordedAnswer('cloudfront-one-distribution') });
    Object.assign(process.env, CREDENTIALS);
  });

  afterAll(async () => {
    process.env = previous;
    await aws?.close();
  });

  it('reads each API in its own protocol: REST-JSON for Lambda and SES v2, REST-XML for CloudFront', async () => {
    aws.state.requests.length = 0;

    const readings = await readAccount('eu-central-2', { lambda: aws.endpoint, sesv2: aws.endpoint, cloudfront: aws.endpoint });

    expect(readings.lambda).toEqual({ ok: true, answer: { AccountLimit: { ConcurrentExecutions: 10, UnreservedConcurrentExecutions: 10 } } });
    expect(readings.ses).toMatchObject({ ok: true, answer: { ProductionAccessEnabled: false, SendingEnabled: true, EnforcementStatus: 'HEALTHY', SendQuota: { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 } } });
    expect(readings.cloudFront).toEqual({ ok: true, answer: { DistributionList: { Quantity: 1, Items: [{ Id: 'E1AB2CD3EF4GHI', DomainName: 'd111111abcdef8.cloudfront.net' }] } } });
    // Lambda and SES in the stack's region; CloudFront is global, signed for us-east-1; one item asked for.
    expect(aws.state.requests.map(({ service, signedFor }) => `${service} ${signedFor}`).sort()).toEqual(['cloudfront us-east-1/cloudfront', 'lambda eu-central-2/lambda', 'sesv2 eu-central-2/ses']);
    expect(aws.state.requests.find(({ service }) => service === 'cloudfront')?.url).toBe('/2020-05-31/distribution?MaxItems=1');
  });

  it("turns each API's error document into an unchecked or blocking finding, never a crash", async () => {
    aws.state.answers.lambda = recordedAnswer('lambda-access-denied');
    aws.state.answers.cloudfront = recordedAnswer('cloudfront-account-unverified');

    const readings = await readAccount('eu-west-1', { lambda: aws.endpoint, sesv2: aws.endpoint, cloudfront: aws.endpoint });
    const report = preflightReport(readings, { inboundMail: 'auto' });

    expect(readings.lambda).toEqual({ ok: false, error: { name: 'AccessDeniedException', message: recordedAnswer('lambda-access-denied').error!.message } });
    expect(readings.cloudFront).toEqual({ ok: false, error: { name: 'AccessDenied', message: recordedAnswer('cloudfront-account-unverified').error!.message } });
    expect(report.findings.map(({ check, verdict }) => `${check}:${verdict}`)).toEqual(['lambda-concurrency:unchecked', 'ses-sending:request', 'inbound-mail:note', 'cloudfront:blocker']);
    aws.state.answers.lambda = recordedAnswer('lambda-new-account');
    aws.state.answers.cloudfront = recordedAnswer('cloudfront-one-distribution');
  });

  it('npm run preflight -- --json: prints the report for the region given and exits 1 on a new account', async () => {
    const run = await runPreflight(['--region', 'eu-central-2', '-c', 'gatehouse:inboundMail=off', '--json'], aws.endpoint);
    const report = JSON.parse(run.stdout) as PreflightReport;

    expect(run.code, run.stderr).toBe(PREFLIGHT_EXIT.blocked);
    expect(report).toMatchObject({ region: 'eu-central-2', exitCode: PREFLIGHT_EXIT.blocked });
    expect(report.findings.find(({ check }) => check === 'lambda-concurrency')).toMatchObject({ verdict: 'blocker', command: expect.stringContaining(`--desired-value ${MINIMUM_ACCOUNT_CONCURRENCY} --region eu-central-2`) });
    expect(report.findings.find(({ check }) => check === 'inbound-mail')?.verdict).toBe('pass');
  });

  it('npm run preflight: exits 0 once the quota is raised, and 2 on an unknown option value without calling AWS', async () => {
    aws.state.answers.lambda = recordedAnswer('lambda-default-quota');
    const clear = await runPreflight(['--region', 'eu-west-1'], aws.endpoint);
    aws.state.requests.length = 0;
    const usage = await runPreflight(['-c', 'gatehouse:inboundMail=maybe'], aws.endpoint);

    expect(clear.code, clear.stdout + clear.stderr).toBe(PREFLIGHT_EXIT.clear);
    expect(clear.stdout).toContain('OK        lambda-concurrency: Lambda concurrency: 1000 unreserved of a quota of 1000 in eu-west-1');
    expect(usage.code).toBe(PREFLIGHT_EXIT.usage);
    expect(usage.stderr).toContain("gatehouse:inboundMail must be auto, on or off, not 'maybe'.");
    expect(aws.state.requests).toEqual([]);
  });
});
