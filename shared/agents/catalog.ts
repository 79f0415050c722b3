import type { Agent } from '#shared/agents/agent';
import { aiReadinessAgent } from '#shared/agents/ai-readiness/ai-readiness-agent';
import { salesAgent } from '#shared/agents/sales/sales-agent';
import { findAgentListing } from '#shared/agents/directory';

/** The agents every tenant can deploy. */
export const builtInAgents: Agent[] = [aiReadinessAgent, salesAgent];

/** Resolves a canonical slug or an alias (e.g. `ai-readiness`) to its built-in agent. */
export function findAgentBySlug(slug: string): Agent | undefined {
  const canonical = findAgentListing(slug)?.slug;
  return builtInAgents.find((a) => a.manifest.slug === canonical);
}
