import { LambdaClient } from '@aws-sdk/client-lambda';
import { readCloudFrontDistributions } from '#shared/adapters/preflight/cloudfront-distributions';
import { readLambdaAccountSettings } from '#shared/adapters/preflight/lambda-account-settings';
import { readSesAccount } from '#shared/adapters/preflight/ses-account';
import type { AccountReadings, Reading } from '#shared/preflight/readings';

/** The region the CDK CLI deploys to when nothing names one; the preflight assumes the same. */
export const CDK_FALLBACK_REGION = 'us-east-1';

/** Endpoints by service, for tests; otherwise the SDK's own (AWS_ENDPOINT_URL_<SERVICE> included). */
export interface PreflightEndpoints {
  lambda?: string;
  sesv2?: string;
  cloudfront?: string;
}

/**
 * The region as the CDK CLI picks it: the one given, else the SDK's chain (AWS_REGION, the
 * profile's region), else us-east-1.
 */
export async function resolveRegion(given: string | undefined): Promise<string> {
  if (given) return given;
  const client = new LambdaClient({});
  try {
    return await client.config.region();
  } catch {
    return CDK_FALLBACK_REGION;
  } finally {
    client.destroy();
  }
}

/** An answer, or the error that stood in its way (denied, throttled past retries, unreachable). */
async function reading<T>(call: () => Promise<T>): Promise<Reading<T>> {
  try {
    return { ok: true, answer: await call() };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    return { ok: false, error: { name, message } };
  }
}

/** Reads everything the preflight checks, the calls side by side; read-only calls only. */
export async function readAccount(region: string, endpoints: PreflightEndpoints = {}): Promise<AccountReadings> {
  const [lambda, ses, cloudFront] = await Promise.all([
    reading(() => readLambdaAccountSettings({ region, endpoint: endpoints.lambda })),
    reading(() => readSesAccount({ region, endpoint: endpoints.sesv2 })),
    reading(() => readCloudFrontDistributions({ region, endpoint: endpoints.cloudfront })),
  ]);
  return { region, lambda, ses, cloudFront };
}
