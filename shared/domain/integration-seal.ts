import { credentialContext, DEFAULT_API_URLS, type Integration, type IntegrationCredentials, type IntegrationKind, type IntegrationSettings, type SlackCredentials } from '#shared/domain/integration';

/**
 * What is sealed (encrypted) for an integration, and what opening it proves. Pure: the cipher is
 * the caller's (integration-admin.ts seals, the tool proxy opens).
 *
 * The credentials are sealed together with the provider URL they were checked against, so they
 * only ever go to that URL: a changed `api_url` needs the credentials again and a fresh check
 * (integration-admin.ts), and every use compares the sealed URL with the record's before it sends
 * anything (`openSealed`). The URL is inside the authenticated ciphertext, so neither the API nor
 * a write to the table can move the token elsewhere.
 *
 * Slack's signing secret is sealed apart, under a context of its own: a callback's signature is
 * checked with it alone, and the bot token is opened only for a request that passed.
 *
 * Sealed before this format (plain credentials JSON, no URL): such credentials count as verified
 * for the provider's public API only (`DEFAULT_API_URLS`). Their record's URL may have been changed
 * without credentials while that was possible, so a custom URL beside them proves nothing; they
 * are refused (`integration_url_unverified`) until the credentials are given again with PATCH.
 */

const FORMAT = 2;

interface SealedPayload {
  v: typeof FORMAT;
  /** The provider URL the credentials were checked against; null for mail (its server is in the credentials). */
  api_url: string | null;
  credentials: IntegrationCredentials;
}

/** The provider URL of a kind's settings, or null when the credentials name their own server (mail). */
export function providerUrlOf(kind: IntegrationKind, settings: IntegrationSettings): string | null {
  return kind === 'email' ? null : (settings as { api_url: string }).api_url;
}

/** The plaintexts to encrypt for credentials checked against `settings`' URL. */
export function sealedPlaintexts(kind: IntegrationKind, credentials: IntegrationCredentials, settings: IntegrationSettings): { credentials: string; signingSecret?: string } {
  if (kind === 'slack') {
    const { signing_secret: signingSecret, ...bot } = credentials as SlackCredentials;
    return { credentials: JSON.stringify({ v: FORMAT, api_url: providerUrlOf(kind, settings), credentials: bot } satisfies SealedPayload), signingSecret };
  }
  return { credentials: JSON.stringify({ v: FORMAT, api_url: providerUrlOf(kind, settings), credentials } satisfies SealedPayload) };
}

/**
 * Binds the signing secret's ciphertext to its integration, apart from the credentials': a context
 * of its own (`part`), so neither ciphertext opens as the other, with the same `purpose` the KMS
 * grants are conditioned on (lib/constructs/gatehouse-function.ts).
 */
export function signingSecretContext(integration: Pick<Integration, 'tenant_id' | 'integration_id'>): Record<string, string> {
  return { ...credentialContext(integration), part: 'slack-signing-secret' };
}

export type OpenedCredentials = { ok: true; credentials: IntegrationCredentials } | { ok: false; verifiedUrl: string | null };

/**
 * Opened credentials, if the record's provider URL is the one they were verified for; otherwise
 * which URL that was (nothing may be sent with them). Legacy payloads: see the module comment.
 */
export function openSealed(integration: Pick<Integration, 'kind' | 'settings'>, plaintext: string): OpenedCredentials {
  const parsed = JSON.parse(plaintext) as SealedPayload | IntegrationCredentials;
  const sealed: SealedPayload = isSealedPayload(parsed) ? parsed : { v: FORMAT, api_url: legacyVerifiedUrl(integration.kind), credentials: parsed };
  const current = providerUrlOf(integration.kind, integration.settings);
  return sealed.api_url === current ? { ok: true, credentials: sealed.credentials } : { ok: false, verifiedUrl: sealed.api_url };
}

/** The signing secret of a legacy Slack payload (sealed with the bot token, before `signing_secret_ciphertext`). */
export function legacySigningSecret(plaintext: string): string {
  const parsed = JSON.parse(plaintext) as SealedPayload | SlackCredentials;
  return isSealedPayload(parsed) ? '' : (parsed.signing_secret ?? '');
}

function isSealedPayload(value: unknown): value is SealedPayload {
  return typeof value === 'object' && value !== null && (value as SealedPayload).v === FORMAT && 'credentials' in value;
}

function legacyVerifiedUrl(kind: IntegrationKind): string | null {
  return kind === 'email' ? null : DEFAULT_API_URLS[kind];
}
