import { limits, type LimitName } from '#shared/config/limits';
import { ConflictError } from '#shared/domain/errors';

/**
 * The per-tenant count caps (OWASP API4). Each is held by a counter item per (tenant, kind) that
 * the create transaction raises only while it is below the cap and the delete transaction lowers
 * (shared/adapters/dynamodb/tenant-count-repository.ts), so concurrent requests cannot pass it.
 */
export type CappedKind = 'webhooks' | 'triggers' | 'integrations' | 'custom_agents';

const CAPS: Record<CappedKind, { limit: LimitName; refusal: (cap: number) => ConflictError }> = {
  webhooks: { limit: 'maxWebhooksPerTenant', refusal: (cap) => new ConflictError('webhook_limit_reached', `A tenant may have at most ${cap} webhook subscriptions. Delete one first.`) },
  triggers: { limit: 'maxTriggersPerTenant', refusal: (cap) => new ConflictError('trigger_limit_reached', `A tenant has at most ${cap} triggers; delete one first.`) },
  integrations: { limit: 'maxIntegrationsPerTenant', refusal: (cap) => new ConflictError('integration_limit_reached', `A tenant has at most ${cap} integrations; delete one first.`) },
  custom_agents: { limit: 'maxCustomAgentsPerTenant', refusal: (cap) => new ConflictError('custom_agent_limit', `A tenant can deploy at most ${cap} custom agents.`) },
};

/** The cap of a kind for this deployment (`GATEHOUSE_MAX_*_PER_TENANT`, shared/config/limits.ts). */
export function tenantCap(kind: CappedKind): number {
  return limits()[CAPS[kind].limit];
}

/** The 409 of a create refused by its cap. */
export function capReached(kind: CappedKind, cap = tenantCap(kind)): ConflictError {
  return CAPS[kind].refusal(cap);
}
