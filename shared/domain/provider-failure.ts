/**
 * How a provider call went wrong, in the terms the tool proxy acts on:
 * - `credentials_refused`: the provider refused the credentials (HTTP 401, Slack `invalid_auth`,
 *   SMTP 535): the integration is revoked and the task fails `integration_revoked`;
 * - `transient`: worth retrying with backoff (5xx, 429, timeouts, connection errors);
 * - `rejected`: the provider understood and refused this call (404, 422, `channel_not_found`).
 */
export type ProviderFailureKind = 'credentials_refused' | 'transient' | 'rejected';

export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    /** The provider's own code or status, for the caller's error message: never a secret. */
    readonly providerCode?: string,
    /** Seconds the provider asked us to wait (Retry-After), when it said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}
