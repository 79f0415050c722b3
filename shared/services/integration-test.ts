import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import type { IntegrationTestAnswer } from '#shared/domain/tool-proxy';
import { accountOf } from '#shared/services/integration-connection';
import { ToolCallRefused, withIntegration } from '#shared/services/tool-execution';

/**
 * "Test" in the dashboard: one provider call with the stored credentials, as at connect. Refused
 * credentials revoke the integration, as they would in a task; success says whose they are.
 */
export async function testIntegration(tenantId: string, integrationId: string): Promise<IntegrationTestAnswer | { ok: false; status: 'missing' }> {
  const integration = await integrationRepository.get(tenantId, integrationId);
  if (!integration) return { ok: false, status: 'missing' };
  if (integration.status === 'revoked') return { ok: false, status: 'revoked', error: { code: 'integration_revoked', message: `The credentials were refused earlier (${integration.revoked_reason ?? 'revoked'}); replace them with PATCH.` } };
  try {
    const account = await withIntegration(integration, (credentials) => accountOf(integration.kind, credentials, integration.settings));
    return { ok: true, account };
  } catch (error) {
    if (!(error instanceof ToolCallRefused)) throw error;
    return { ok: false, status: error.code === 'integration_revoked' ? 'revoked' : 'active', error: { code: error.code, message: error.message } };
  }
}
