import type { Agent } from '#shared/agents/agent';
import { aiReadinessAgent } from '#shared/agents/ai-readiness/ai-readiness-agent';
import { salesAgent } from '#shared/agents/sales/sales-agent';

/** The agents every tenant can deploy. */
export const builtInAgents: Agent[] = [aiReadinessAgent, salesAgent];

/** Resolves a canonical slug or an alias (e.g. `ai-readiness`) to its built-in agent. */
export function findAgentBySlug(slug: string): Agent | undefined {
  return builtInAgents.find((a) => a.manifest.slug === slug || a.manifest.aliases.includes(slug));
}
