import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import type { IntegrationKind } from '#shared/domain/integration';
import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import type { AgentManifest } from '#shared/agents/agent';
import { unknownAgentError } from '#shared/agents/directory';
import { findManifestBySlug } from '#shared/agents/manifests';
import { DEFAULT_AGENT_CONFIG, isCustomAgent, type AgentConfig, type AgentDeployment } from '#shared/domain/agent-deployment';
import { customSlugProblem, manifestProblems, publishedManifest, type CustomAgentManifest } from '#shared/domain/custom-agent';
import { systemClock } from '#shared/domain/clock';
import { InvalidRequestError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';

/**
 * Deploys an agent into the tenant: a built-in (aliases deploy the canonical agent), or, with a
 * manifest, a custom agent of the tenant's own whose tasks its workers claim (docs/workers.md).
 */
export async function deployAgent(tenantId: string, request: { agent_slug: string; name?: string; manifest?: CustomAgentManifest }): Promise<AgentDeployment> {
  const builtIn = findManifestBySlug(request.agent_slug);
  if (request.manifest) {
    const manifest = checkedManifest(tenantId, request.agent_slug, request.manifest);
    await tenantCountRepository.ensureRoom(tenantId, 'custom_agents');
    return deploy(tenantId, request.agent_slug, request.name ?? request.agent_slug, manifest);
  }
  if (!builtIn) throw unknownAgentError(request.agent_slug, 'body.agent_slug');
  return deploy(tenantId, builtIn.slug, request.name ?? builtIn.name);
}

/** The custom manifest, or a 400 `invalid_manifest` naming every problem of it (and of the slug). */
function checkedManifest(tenantId: string, slug: string, manifest: CustomAgentManifest): CustomAgentManifest {
  const slugProblem = customSlugProblem(slug);
  const problems = [...(slugProblem ? [{ path: 'body.agent_slug', message: slugProblem }] : []), ...manifestProblems(manifest, tenantId)];
  if (problems.length > 0) throw new InvalidRequestError(`The custom agent cannot be deployed: ${problems.map((problem) => `${problem.path} ${problem.message}`).join('; ')}.`, problems, 'invalid_manifest');
  return manifest;
}

async function deploy(tenantId: string, slug: string, name: string, manifest?: CustomAgentManifest): Promise<AgentDeployment> {
  const now = systemClock.now().toISOString();
  const deployment: AgentDeployment = {
    agent_id: newId('agt'),
    tenant_id: tenantId,
    agent_slug: slug,
    name,
    status: 'active',
    config: { ...DEFAULT_AGENT_CONFIG },
    created_at: now,
    updated_at: now,
    ...(manifest ? { manifest } : {}),
  };
  await agentRepository.deploy(deployment);
  return deployment;
}

/** The manifest a deployed agent publishes: a built-in's from the code, a custom agent's from its deployment. */
export function manifestOf(deployment: AgentDeployment): AgentManifest | undefined {
  if (isCustomAgent(deployment)) return publishedManifest(deployment.agent_slug, deployment.name, deployment.manifest, deployment.updated_at);
  return findManifestBySlug(deployment.agent_slug);
}

/** A deployed agent by its id (`agt_…`) or by a slug (aliases included), or undefined. */
export function findDeployedAgent(tenantId: string, idOrSlug: string): Promise<AgentDeployment | undefined> {
  if (idOrSlug.startsWith('agt_')) return agentRepository.findById(tenantId, idOrSlug);
  return agentRepository.findBySlug(tenantId, findManifestBySlug(idOrSlug)?.slug ?? idOrSlug);
}

/** Finds a deployed agent by its id or by a slug (aliases included); 404 when not deployed. */
export async function getDeployedAgent(tenantId: string, idOrSlug: string): Promise<{ deployment: AgentDeployment; manifest: AgentManifest }> {
  const deployment = await findDeployedAgent(tenantId, idOrSlug);
  const manifest = deployment && manifestOf(deployment);
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
