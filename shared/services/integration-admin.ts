import { integrationCipher } from '#shared/adapters/crypto/integration-cipher';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { systemClock, type Clock } from '#shared/domain/clock';
import { ConflictError, InvalidRequestError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import {
  credentialContext,
  DEFAULT_API_URLS,
  MAX_INTEGRATIONS_PER_TENANT,
  type EmailCredentials,
  type Integration,
  type IntegrationCredentials,
  type IntegrationKind,
  type IntegrationSettings,
} from '#shared/domain/integration';
import { parsedForKind } from '#shared/domain/integration-schemas';
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
  if ((await integrationRepository.listAll(tenantId)).length >= MAX_INTEGRATIONS_PER_TENANT) {
    throw new ConflictError('integration_limit_reached', `A tenant has at most ${MAX_INTEGRATIONS_PER_TENANT} integrations; delete one first.`);
  }
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
    credentials_ciphertext: await integrationCipher().encrypt(JSON.stringify(credentials), credentialContext({ tenant_id: tenantId, integration_id: integrationId })),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    last_used_at: null,
  };
  await integrationRepository.create(integration);
  return integration;
}

/**
 * PATCH: a new name or settings, or new credentials (checked like at connect, and a revoked
 * integration becomes active again with them).
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
  if (!request.credentials) return integrationRepository.update(tenantId, integrationId, { ...(request.name ? { name: request.name } : {}), settings, updated_at: now });
  const credentials = parsedForKind('credentials', current.kind, request.credentials) as unknown as IntegrationCredentials;
  checkSmtpHost(credentials);
  const account = await connectedAccount(current.kind, credentials, settings);
  const ciphertext = await integrationCipher().encrypt(JSON.stringify(credentials), credentialContext(current));
  return integrationRepository.replaceCredentials(tenantId, integrationId, { ...(request.name ? { name: request.name } : {}), settings, account, credentials_ciphertext: ciphertext, updated_at: now });
}
