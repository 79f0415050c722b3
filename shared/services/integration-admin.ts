import { integrationCipher } from '#shared/adapters/crypto/integration-cipher';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { systemClock, type Clock } from '#shared/domain/clock';
import { InvalidRequestError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import {
  credentialContext,
  DEFAULT_API_URLS,
  type EmailCredentials,
  type Integration,
  type IntegrationCredentials,
  type IntegrationKind,
  type IntegrationSettings,
} from '#shared/domain/integration';
import { parsedForKind } from '#shared/domain/integration-schemas';
import { providerUrlOf, sealedPlaintexts, signingSecretContext } from '#shared/domain/integration-seal';
import { checkProviderUrl, connectedAccount, smtpUrl } from '#shared/services/integration-connection';
import { getIntegration } from '#shared/services/integrations';

// The integration operations that check and encrypt credentials: the only ones that bundle the
// provider clients and may encrypt (never decrypt) under the integrations key.

export interface ConnectRequest {
  kind: IntegrationKind;
  name: string;
  credentials: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

/** Settings with their defaults, provider URLs vetted; `path` names the body field for errors. */
export function normalizedSettings(kind: IntegrationKind, settings: Record<string, unknown> = {}): IntegrationSettings {
  if (kind === 'email') {
    if (typeof settings.from !== 'string') throw new InvalidRequestError('An email integration names its sender.', [{ path: 'body.settings.from', message: 'required for email' }]);
    return { from: settings.from };
  }
  const apiUrl = checkProviderUrl(typeof settings.api_url === 'string' ? settings.api_url : DEFAULT_API_URLS[kind], 'body.settings.api_url');
  if (kind === 'github') return { api_url: apiUrl };
  return {
    api_url: apiUrl,
    ...(typeof settings.approvals_channel === 'string' ? { approvals_channel: settings.approvals_channel } : {}),
    ...(Array.isArray(settings.approvers) ? { approvers: [...new Set(settings.approvers as string[])] } : {}),
  };
}

function checkSmtpHost(credentials: IntegrationCredentials): void {
  const email = credentials as EmailCredentials;
  if ('host' in email) checkProviderUrl(smtpUrl(email), 'body.credentials.host');
}

export async function connectIntegration(tenantId: string, request: ConnectRequest, clock: Clock = systemClock): Promise<Integration> {
  const credentials = request.credentials as unknown as IntegrationCredentials;
  const settings = normalizedSettings(request.kind, request.settings);
  checkSmtpHost(credentials);
  // Refused before the provider is asked; the cap itself holds in the create's transaction.
  await tenantCountRepository.ensureRoom(tenantId, 'integrations');
  const account = await connectedAccount(request.kind, credentials, settings);
  const now = clock.now();
  const integrationId = newId('int', now.getTime());
  const integration: Integration = {
    integration_id: integrationId,
    tenant_id: tenantId,
    kind: request.kind,
    name: request.name,
    status: 'active',
    account,
    settings,
    ...(await sealed({ tenant_id: tenantId, integration_id: integrationId }, request.kind, credentials, settings)),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    last_used_at: null,
  };
  await integrationRepository.create(integration);
  return integration;
}

/** The ciphertexts of credentials checked against `settings`' provider URL (integration-seal.ts). */
async function sealed(ids: Pick<Integration, 'tenant_id' | 'integration_id'>, kind: IntegrationKind, credentials: IntegrationCredentials, settings: IntegrationSettings): Promise<Pick<Integration, 'credentials_ciphertext' | 'signing_secret_ciphertext'>> {
  const plaintexts = sealedPlaintexts(kind, credentials, settings);
  const [credentialsCiphertext, signingSecretCiphertext] = await Promise.all([
    integrationCipher().encrypt(plaintexts.credentials, credentialContext(ids)),
    plaintexts.signingSecret === undefined ? undefined : integrationCipher().encrypt(plaintexts.signingSecret, signingSecretContext(ids)),
  ]);
  return { credentials_ciphertext: credentialsCiphertext, ...(signingSecretCiphertext ? { signing_secret_ciphertext: signingSecretCiphertext } : {}) };
}

/**
 * PATCH: a new name or settings, or new credentials (checked like at connect, and a revoked
 * integration becomes active again with them). A new provider URL needs the credentials with it:
 * they are sealed to the URL they were checked against, and go nowhere else.
 */
export async function updateIntegration(
  tenantId: string,
  integrationId: string,
  request: { name?: string; settings?: Record<string, unknown>; credentials?: Record<string, unknown> },
  clock: Clock = systemClock,
): Promise<Integration> {
  const current = await getIntegration(tenantId, integrationId);
  const settings = request.settings ? normalizedSettings(current.kind, { ...current.settings, ...parsedForKind('settings', current.kind, request.settings) }) : current.settings;
  const now = clock.now().toISOString();
  const urlChanged = providerUrlOf(current.kind, settings) !== providerUrlOf(current.kind, current.settings);
  if (!request.credentials && urlChanged) {
    throw new InvalidRequestError(
      'Credentials go only to the provider URL they were checked against: send them again with the new `api_url`, and they are checked there.',
      [{ path: 'body.credentials', message: 'required when settings.api_url changes' }],
      'integration_credentials_required',
    );
  }
  if (!request.credentials) return integrationRepository.update(tenantId, integrationId, { ...(request.name ? { name: request.name } : {}), settings, updated_at: now });
  const credentials = parsedForKind('credentials', current.kind, request.credentials) as unknown as IntegrationCredentials;
  checkSmtpHost(credentials);
  const account = await connectedAccount(current.kind, credentials, settings);
  return integrationRepository.replaceCredentials(tenantId, integrationId, { ...(request.name ? { name: request.name } : {}), settings, account, ...(await sealed(current, current.kind, credentials, settings)), updated_at: now });
}
