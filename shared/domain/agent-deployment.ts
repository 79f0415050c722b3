import type { CustomAgentManifest } from '#shared/domain/custom-agent';
import type { IntegrationKind } from '#shared/domain/integration';

/** An agent deployed into one tenant: a built-in, or a custom agent with its manifest, whose tasks workers claim. */
export interface AgentDeployment {
  agent_id: string;
  tenant_id: string;
  agent_slug: string;
  name: string;
  status: 'active';
  config: AgentConfig;
  created_at: string;
  updated_at: string;
  /** A custom agent's manifest; absent on a built-in (its manifest is in the code). */
  manifest?: CustomAgentManifest;
}

export function isCustomAgent(agent: Pick<AgentDeployment, 'manifest'>): agent is AgentDeployment & { manifest: CustomAgentManifest } {
  return agent.manifest !== undefined;
}

export interface AgentConfig {
  /** Hours an approval requested by this agent stays valid before it counts as denied. */
  approval_ttl_hours: number;
  /** The integrations the agent's tool calls use, one per kind; absent means none (mail: the service's mailer). */
  integrations?: Partial<Record<IntegrationKind, string>>;
}

export const DEFAULT_AGENT_CONFIG: AgentConfig = { approval_ttl_hours: 24 };

export function renderAgent(agent: AgentDeployment) {
  return {
    agent_id: agent.agent_id,
    agent_slug: agent.agent_slug,
    name: agent.name,
    status: agent.status,
    config: agent.config,
    kind: isCustomAgent(agent) ? ('custom' as const) : ('built_in' as const),
    created_at: agent.created_at,
    updated_at: agent.updated_at,
  };
}
