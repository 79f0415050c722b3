/** Where the preflight's clients call: the region, and an endpoint for tests (loopback servers). */
export interface PreflightClientOptions {
  region: string;
  endpoint?: string;
}

/** The settings every preflight client shares: a few retries, and no call left hanging. */
export function clientConfig({ region, endpoint }: PreflightClientOptions) {
  return { region, ...(endpoint ? { endpoint } : {}), maxAttempts: 3, requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 } };
}
