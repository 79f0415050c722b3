import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { integrationCipher } from '#shared/adapters/crypto/integration-cipher';
import { systemClock, type Clock } from '#shared/domain/clock';
import { adminEvent } from '#shared/domain/admin-events';
import { credentialContext, type Integration, type IntegrationCredentials, type IntegrationKind } from '#shared/domain/integration';
import { legacySigningSecret, openSealed, providerUrlOf, signingSecretContext } from '#shared/domain/integration-seal';
import { ProviderFailure } from '#shared/domain/provider-failure';
import type { ToolCallAnswer } from '#shared/domain/tool-proxy';
import { toolArgsViolations, toolNamed } from '#shared/domain/tools';
import { runTool } from '#shared/services/tool-runners';

/** Attempts of a call the provider failed transiently, with backoff between (never a hung task). */
const ATTEMPTS = 3;
const BACKOFF_MS = [250, 1_000];
const MAX_RETRY_AFTER_MS = 5_000;
/** `last_used_at` is kept to this precision. */
const USE_RECORD_INTERVAL_MS = 60_000;

/** Why a tool call could not run, as the task's error code says it. */
export class ToolCallRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolCallRefused';
  }
}

/** The agent's bound integration of a kind, active; refused with the code the task fails with otherwise. */
export async function boundIntegration(tenantId: string, agent: string, kind: IntegrationKind): Promise<Integration | undefined> {
  const deployment = await agentRepository.findBySlug(tenantId, agent);
  const integrationId = deployment?.config.integrations?.[kind];
  if (!integrationId) return undefined;
  const integration = await integrationRepository.get(tenantId, integrationId);
  if (!integration) throw new ToolCallRefused('integration_not_found', `The ${kind} integration bound to agent '${agent}' no longer exists.`);
  if (integration.status === 'revoked') throw new ToolCallRefused('integration_revoked', `The ${kind} integration ${integration.integration_id} was revoked (${integration.revoked_reason ?? 'credentials refused'}); reconnect it.`);
  return integration;
}

/**
 * The plaintext credentials: only this module (the tool proxy's) opens them, and only for the
 * provider URL they were checked against (integration-seal.ts). Any other URL on the record is
 * refused with `integration_url_unverified` before a client exists, so nothing is sent there.
 */
export async function credentialsOf(integration: Integration): Promise<IntegrationCredentials> {
  const opened = openSealed(integration, await integrationCipher().decrypt(integration.credentials_ciphertext, credentialContext(integration)));
  if (opened.ok) return opened.credentials;
  throw new ToolCallRefused(
    'integration_url_unverified',
    `The ${integration.kind} integration ${integration.integration_id} points at ${providerUrlOf(integration.kind, integration.settings)}, but its credentials were checked against ${opened.verifiedUrl ?? 'another server'}: give them again with PATCH (credentials and settings.api_url) to use this URL.`,
  );
}

/**
 * A Slack integration's signing secret, opened alone: a callback's signature is checked with it
 * before the bot token is opened. Records sealed before `signing_secret_ciphertext` keep it inside
 * the credentials, which are then opened for it (until their credentials are replaced).
 */
export async function signingSecretOf(integration: Integration): Promise<string> {
  if (integration.signing_secret_ciphertext) return integrationCipher().decrypt(integration.signing_secret_ciphertext, signingSecretContext(integration));
  return legacySigningSecret(await integrationCipher().decrypt(integration.credentials_ciphertext, credentialContext(integration)));
}

/**
 * Runs provider work with the integration's credentials: transient failures are retried with
 * backoff, refused credentials revoke the integration (with `integration.revoked`) and surface
 * as `integration_revoked`; a use is recorded in `last_used_at`. A caller that opened the
 * credentials already passes them, so they are not decrypted (a KMS call on AWS) twice.
 */
export async function withIntegration<T>(integration: Integration, work: (credentials: IntegrationCredentials) => Promise<T>, options: { clock?: Clock; credentials?: IntegrationCredentials } = {}): Promise<T> {
  const clock = options.clock ?? systemClock;
  const credentials = options.credentials ?? (await credentialsOf(integration));
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await work(credentials);
      // `last_used_at` to the minute: a write on every call was the proxy's largest step (docs/benchmarks.md).
      const now = clock.now();
      if (!integration.last_used_at || now.getTime() - Date.parse(integration.last_used_at) >= USE_RECORD_INTERVAL_MS) {
        await integrationRepository.markUsed(integration.tenant_id, integration.integration_id, now.toISOString()).catch(() => undefined);
      }
      return result;
    } catch (error) {
      if (!(error instanceof ProviderFailure)) throw error;
      if (error.kind === 'credentials_refused') {
        await revokeIntegration(integration, error.message, clock);
        throw new ToolCallRefused('integration_revoked', `The ${integration.kind} integration ${integration.integration_id} was revoked: ${error.message}`);
      }
      if (error.kind === 'rejected') throw new ToolCallRefused('tool_call_rejected', error.message);
      if (attempt >= ATTEMPTS) throw new ToolCallRefused('provider_unavailable', `${error.message} (after ${ATTEMPTS} attempts)`);
      const wait = error.retryAfterSeconds !== undefined ? Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS) : BACKOFF_MS[attempt - 1];
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** Marks the integration revoked with its event (once: a second refusal finds it revoked already). */
export async function revokeIntegration(integration: Integration, reason: string, clock: Clock = systemClock): Promise<void> {
  const event = adminEvent('integration.revoked', integration.tenant_id, { type: 'system', id: 'tool-proxy' }, { integration_id: integration.integration_id, kind: integration.kind, reason }, clock);
  await integrationRepository.revoke(integration, reason, event);
}

/**
 * A read tool call of an agent: runs at once with the agent's bound integration. Tools that act
 * on the outside world are refused here; they run only as approved actions (tool-calls.ts).
 */
export async function callReadTool(request: { tenant_id: string; agent: string; tool: string; args: Record<string, unknown> }, clock: Clock = systemClock): Promise<ToolCallAnswer> {
  const started = clock.now().getTime();
  let integrationId: string | null = null;
  const answer = (outcome: { outcome: 'succeeded'; result: Record<string, unknown> } | { outcome: 'failed'; error: { code: string; message: string } }): ToolCallAnswer => ({ ...outcome, integration_id: integrationId, duration_ms: clock.now().getTime() - started }) as ToolCallAnswer;
  try {
    const tool = toolNamed(request.tool);
    if (!tool) throw new ToolCallRefused('unknown_tool', `No tool is named '${request.tool}'.`);
    if (tool.acts) throw new ToolCallRefused('tool_requires_approval', `'${request.tool}' acts on the outside world: request an approval for it instead of calling it.`);
    const violations = toolArgsViolations(tool, request.args);
    if (violations.length > 0) throw new ToolCallRefused('invalid_tool_arguments', violations.join('; '));
    const integration = await boundIntegration(request.tenant_id, request.agent, tool.integration);
    if (!integration) throw new ToolCallRefused('integration_not_bound', `Agent '${request.agent}' has no ${tool.integration} integration: bind one with PATCH /v1/agents/${request.agent}/config.`);
    integrationId = integration.integration_id;
    const result = await withIntegration(integration, (credentials) => runTool(request.tool, request.args, integration, credentials), { clock });
    return answer({ outcome: 'succeeded', result });
  } catch (error) {
    if (error instanceof ToolCallRefused) return answer({ outcome: 'failed', error: { code: error.code, message: error.message } });
    throw error;
  }
}
