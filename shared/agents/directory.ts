import { InvalidRequestError } from '#shared/domain/errors';

/**
 * The built-in agents as the API names them: canonical slug, aliases and task types, and nothing
 * else. Routes that only resolve a slug or check a task type (`POST /tasks`, the listings filtered
 * by agent, the event stream) read this instead of the manifests, whose input schemas (with the
 * evidence catalogue they enumerate) they would otherwise load at every cold start.
 * The manifests take their slugs from here; test/unit/agents/directory.test.ts keeps the task types in step.
 */
export interface AgentListing {
  slug: string;
  aliases: readonly string[];
  task_types: readonly string[];
}

export const AI_READINESS_AGENT = { slug: 'ai-readiness-agent', aliases: ['ai-readiness'], task_types: ['ai_readiness.full_audit', 'questionnaire.respond'] } as const satisfies AgentListing;

export const SALES_AGENT = { slug: 'sales', aliases: [], task_types: ['sales.find_leads', 'sales.enrich_leads', 'sales.pipeline_report', 'sales.draft_email'] } as const satisfies AgentListing;

export const BUILT_IN_AGENTS: readonly AgentListing[] = [AI_READINESS_AGENT, SALES_AGENT];

/** The built-in agent a canonical slug or an alias (e.g. `ai-readiness`) names. */
export function findAgentListing(slugOrAlias: string): AgentListing | undefined {
  return BUILT_IN_AGENTS.find((agent) => agent.slug === slugOrAlias || agent.aliases.includes(slugOrAlias));
}

/** A listing filter's `agent`: an alias becomes its canonical slug; anything else is kept, and matches nothing. */
export function canonicalAgentFilter(slugOrAlias: string): string {
  return findAgentListing(slugOrAlias)?.slug ?? slugOrAlias;
}

/** Where the catalog of deployable agents is documented; unknown-agent errors point there. */
export const AGENT_CATALOG_DOCS = 'docs/api.md#agents';

/**
 * The 400 for a slug that names no built-in agent (`unknown_agent`): it says which slugs exist
 * and where the catalog is, so the client can correct the request without looking elsewhere.
 */
export function unknownAgentError(reference: string, field: string): InvalidRequestError {
  const names = BUILT_IN_AGENTS.map((agent) => (agent.aliases.length > 0 ? `${agent.slug} (alias ${agent.aliases.join(', ')})` : agent.slug));
  const slugs = BUILT_IN_AGENTS.flatMap((agent) => [agent.slug, ...agent.aliases]);
  return new InvalidRequestError(
    `Unknown agent '${reference}'. The built-in agents are ${names.join(' and ')}; GET /v1/agents/catalog lists them with their task types (${AGENT_CATALOG_DOCS}). An agent of your own is deployed with a manifest (docs/workers.md).`,
    [{ path: field, message: `not a built-in agent; must be one of: ${slugs.join(', ')}` }],
    'unknown_agent',
  );
}
