import { validateWebhookUrl, assertDeliverableUrl, UndeliverableUrlError, type PinnedTarget } from '#shared/adapters/http/ssrf-guard';
import { gitHubAccount, gitHubClient } from '#shared/adapters/providers/github';
import { slackAccount, slackClient } from '#shared/adapters/providers/slack';
import { verifySmtp } from '#shared/adapters/providers/smtp';
import { InvalidRequestError } from '#shared/domain/errors';
import type { EmailCredentials, GitHubCredentials, IntegrationCredentials, IntegrationKind, IntegrationSettings, SlackCredentials, SlackSettings, GitHubSettings, EmailSettings } from '#shared/domain/integration';
import { ProviderFailure } from '#shared/domain/provider-failure';
import { allowLoopbackWebhooks } from '#shared/services/webhooks';

/**
 * Where a provider may be reached: https on a public address (the webhooks' SSRF guard), loopback
 * and plain http only where webhooks may use them (the local runtime and tests).
 */
export function checkProviderUrl(url: string, path: string): string {
  try {
    return validateWebhookUrl(url, { allowLoopback: allowLoopbackWebhooks() }).toString().replace(/\/+$/, '');
  } catch (error) {
    if (error instanceof InvalidRequestError) throw new InvalidRequestError('The provider URL is not acceptable.', error.errors.map((entry) => ({ ...entry, path, message: entry.message.replace('webhooks', 'integrations') })));
    throw error;
  }
}

/**
 * At use: the provider's host must still resolve to an allowed address (DNS may have changed
 * since connect); the answer is the address the client must connect to (pinned), never resolved again.
 */
export async function assertReachableProvider(url: string): Promise<PinnedTarget> {
  try {
    return await assertDeliverableUrl(url, { allowLoopback: allowLoopbackWebhooks() });
  } catch (error) {
    if (error instanceof UndeliverableUrlError) throw new ProviderFailure(error.reason === 'dns_failure' ? 'transient' : 'rejected', error.message, error.reason);
    throw error;
  }
}

/** An SMTP server is vetted as an https URL of the same host and port would be. */
export function smtpUrl(credentials: { host: string; port: number }): string {
  return `https://${credentials.host.includes(':') ? `[${credentials.host}]` : credentials.host}:${credentials.port}/`;
}

/** GitHub's client on the vetted address of `apiUrl`. */
export async function pinnedGitHub(apiUrl: string, token: string) {
  return gitHubClient({ token, apiUrl, pin: await assertReachableProvider(apiUrl) });
}

/** Slack's client on the vetted address of `apiUrl`. */
export async function pinnedSlack(apiUrl: string, botToken: string) {
  return slackClient({ botToken, apiUrl, pin: await assertReachableProvider(apiUrl) });
}

/** The vetted address of an SMTP server. */
export function pinnedSmtp(credentials: { host: string; port: number }): Promise<PinnedTarget> {
  return assertReachableProvider(smtpUrl(credentials));
}

/** Checks the credentials with one provider call and answers whose they are (`account`). */
export async function connectedAccount(kind: IntegrationKind, credentials: IntegrationCredentials, settings: IntegrationSettings): Promise<Record<string, string>> {
  try {
    return await accountOf(kind, credentials, settings);
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    if (error.kind === 'transient') {
      throw new InvalidRequestError(`The ${kind} provider could not be reached to check the credentials: ${error.message} Check the settings and retry.`, [], 'integration_unreachable');
    }
    throw new InvalidRequestError(`The ${kind} provider refused the credentials: ${error.message}`, [{ path: 'body.credentials', message: 'refused by the provider' }], 'integration_credentials_invalid');
  }
}

/** One provider call with these credentials: whose they are, or a ProviderFailure. */
export async function accountOf(kind: IntegrationKind, credentials: IntegrationCredentials, settings: IntegrationSettings): Promise<Record<string, string>> {
  if (kind === 'github') return gitHubAccount(await pinnedGitHub((settings as GitHubSettings).api_url, (credentials as GitHubCredentials).token));
  if (kind === 'slack') return slackAccount(await pinnedSlack((settings as SlackSettings).api_url, (credentials as SlackCredentials).bot_token));
  const email = credentials as EmailCredentials;
  const { from } = settings as EmailSettings;
  // The deployment's own SES sending: nothing of the tenant's to check (docs/integrations.md).
  if ('ses' in email) return { sender: from, via: 'ses' };
  await verifySmtp(email, await pinnedSmtp(email));
  return { sender: from, via: 'smtp', server: `${email.host}:${email.port}`, ...(email.username ? { username: email.username } : {}) };
}
