import { builtInManifests } from '#shared/agents/manifests';

/**
 * The agents a tenant can deploy, with their task types: what `GET /agents/catalog` lists, the
 * same for every tenant (GET /agents lists the tenant's own deployments).
 */
export function listAgentCatalog() {
  return builtInManifests.map((manifest) => ({
    slug: manifest.slug,
    aliases: manifest.aliases,
    name: manifest.name,
    description: manifest.description,
    task_types: manifest.task_types.map(({ task_type, description }) => ({ task_type, description })),
  }));
}
