import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { NotFoundError } from '#shared/domain/errors';
import type { Integration, IntegrationKind } from '#shared/domain/integration';

// Reads only: no cipher, no provider client (integration-admin.ts connects and changes them).

export async function getIntegration(tenantId: string, integrationId: string): Promise<Integration> {
  const integration = await integrationRepository.get(tenantId, integrationId);
  if (!integration) throw new NotFoundError('integration', integrationId);
  return integration;
}

export function listIntegrations(tenantId: string, query: { kind?: IntegrationKind; limit: number; cursor?: string }) {
  return integrationRepository.list(tenantId, query);
}

/** DELETE: the integration and its encrypted credentials are gone; 404 when there was none. */
export async function deleteIntegration(tenantId: string, integrationId: string): Promise<void> {
  if (!(await integrationRepository.delete(tenantId, integrationId))) throw new NotFoundError('integration', integrationId);
}
