import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import type { IntegrationKind } from '#shared/domain/integration';
import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import type { AgentManifest } from '#shared/agents/agent';
import { unknownAgentError } from '#shared/agents/directory';
import { findManifestBySlug } from '#shared/agents/manifests';
import { DEFAULT_AGENT_CONFIG, type AgentConfig, type AgentDeployment } from '#shared/domain/agent-deployment';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';

/** Deploys a built-in agent into the tenant. Aliases deploy the canonical agent. */
export async function deployAgent(tenantId: string, request: { agent_slug: string; name?: string }): Promise<AgentDeployment> {
  const manifest = findManifestBySlug(request.agent_slug);
  if (!manifest) {
    throw unknownAgentError(request.agent_slug, 'body.agent_slug');
  }
  const now = systemClock.now().toISOString();
  const deployment: AgentDeployment = {
    agent_id: newId('agt'),
    tenant_id: tenantId,
    agent_slug: manifest.slug,
    name: request.name ?? manifest.name,
    status: 'active',
    config: { ...DEFAULT_AGENT_CONFIG },
    created_at: now,
    updated_at: now,
  };
  await agentRepository.deploy(deployment);
  return deployment;
}

/** Finds a deployed agent by its id or by a slug (aliases included); 404 when not deployed. */
export async function getDeployedAgent(tenantId: string, idOrSlug: string): Promise<{ deployment: AgentDeployment; manifest: AgentManifest }> {
  const deployments = await agentRepository.list(tenantId);
  const canonical = findManifestBySlug(idOrSlug)?.slug;
  const deployment = deployments.find((candidate) => candidate.agent_id === idOrSlug || candidate.agent_slug === canonical);
  const manifest = deployment && findManifestBySlug(deployment.agent_slug);
  if (!deployment || !manifest) throw new NotFoundError('agent', idOrSlug);
  return { deployment, manifest };
}

export type AgentConfigChange = Partial<Omit<AgentConfig, 'integrations'>> & { integrations?: Partial<Record<IntegrationKind, string | null>> };

/**
 * Changes an agent's config. `integrations` binds one integration per kind (`null` unbinds it);
 * each must be the tenant's own (another tenant's id is 404, as any id) and of that kind.
 */
export async function updateAgentConfig(tenantId: string, idOrSlug: string, change: AgentConfigChange): Promise<AgentDeployment> {
  const { deployment } = await getDeployedAgent(tenantId, idOrSlug);
  const { integrations: bindings, ...config } = change;
  if (!bindings) return agentRepository.updateConfig(tenantId, deployment.agent_slug, config, systemClock.now().toISOString());
  const integrations: Partial<Record<IntegrationKind, string>> = { ...deployment.config.integrations };
  for (const [kind, integrationId] of Object.entries(bindings) as [IntegrationKind, string | null][]) {
    if (integrationId === null) {
      delete integrations[kind];
      continue;
    }
    const integration = await integrationRepository.get(tenantId, integrationId);
    if (!integration) throw new NotFoundError('integration', integrationId);
    if (integration.kind !== kind) throw new InvalidRequestError('The integration is of another kind.', [{ path: `body.integrations.${kind}`, message: `must be a ${kind} integration; '${integrationId}' is ${integration.kind}` }]);
    integrations[kind] = integrationId;
  }
  return agentRepository.updateConfig(tenantId, deployment.agent_slug, { ...config, integrations }, systemClock.now().toISOString());
}

export function listAgents(tenantId: string): Promise<AgentDeployment[]> {
  return agentRepository.list(tenantId);
}
