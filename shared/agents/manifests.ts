import type { AgentManifest } from '#shared/agents/agent';
import { aiReadinessManifest } from '#shared/agents/ai-readiness/manifest';
import { salesManifest } from '#shared/agents/sales/manifest';
import { findAgentListing } from '#shared/agents/directory';

/**
 * The manifests of the built-in agents, without their handlers: what the API's routes need to
 * resolve a slug or show a manifest. Only the task worker needs the agents themselves
 * (shared/agents/catalog.ts), so only its bundle carries their code and data.
 */
export const builtInManifests: readonly AgentManifest[] = [aiReadinessManifest, salesManifest];

/** Resolves a canonical slug or an alias (e.g. `ai-readiness`) to its built-in agent's manifest. */
export function findManifestBySlug(slug: string): AgentManifest | undefined {
  const canonical = findAgentListing(slug)?.slug;
  return builtInManifests.find((manifest) => manifest.slug === canonical);
}
