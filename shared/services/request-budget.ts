import { rateLimitRepository } from '#shared/adapters/dynamodb/rate-limit-repository';
import type { Clock } from '#shared/domain/clock';
import { systemClock } from '#shared/domain/clock';
import type { RateLimitDecision } from '#shared/domain/rate-limit';
import { LeasedBudgets } from '#shared/domain/rate-limit-lease';
import { recordMetric } from '#shared/observability/metrics';
import { effectiveLimits } from '#shared/services/tenant-limits';

/** This process's leases of the shared budgets: a Lambda instance keeps them between invocations. */
const budgets = new LeasedBudgets(rateLimitRepository);

/** Spends one request of the tenant's budget (its override, else the default) or says when to retry. */
export async function spendRequest(tenantId: string, clock: Clock = systemClock): Promise<RateLimitDecision> {
  const { ratePerSecond, burst } = await effectiveLimits(tenantId, clock);
  const decision = await budgets.spend(tenantId, { ratePerSecond, burst }, () => clock.now().getTime() * 1000);
  // Counted here, the one place both the API routes and the stream spend, so no 429 is missed.
  if (!decision.allowed) recordMetric('rateLimited', 1);
  return decision;
}
