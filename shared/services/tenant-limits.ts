import { tenantLimitsRepository } from '#shared/adapters/dynamodb/tenant-limits-repository';
import { limits, parseLimit, type LimitName } from '#shared/config/limits';
import type { Clock } from '#shared/domain/clock';
import { systemClock } from '#shared/domain/clock';
import type { EffectiveTenantLimits, TenantLimitOverrides, TenantLimitsRecord } from '#shared/domain/tenant-limits';

/**
 * How long a process trusts an override it read. Every request needs its tenant's limits; reading
 * them from the table each time would double the limiter's cost, and an operator's change taking
 * effect within a minute is soon enough (docs/limits.md).
 */
export const OVERRIDE_CACHE_MS = 60_000;

const cache = new Map<string, { value: EffectiveTenantLimits; until: number }>();

/** The limits that apply to a tenant: its overrides, else the deployment's defaults. */
export async function effectiveLimits(tenantId: string, clock: Clock = systemClock): Promise<EffectiveTenantLimits> {
  const now = clock.now().getTime();
  const cached = cache.get(tenantId);
  if (cached && cached.until > now) return cached.value;
  const defaults = limits();
  const overrides = await tenantLimitsRepository.get(tenantId);
  const value: EffectiveTenantLimits = {
    ratePerSecond: overrides?.rate_per_second ?? defaults.ratePerSecond,
    burst: overrides?.burst ?? defaults.burst,
    taskConcurrency: overrides?.task_concurrency ?? defaults.tenantTaskConcurrency,
  };
  // Bounded: a process serves few tenants, but a cache must not grow without end.
  if (cache.size > 10_000) cache.clear();
  cache.set(tenantId, { value, until: now + OVERRIDE_CACHE_MS });
  return value;
}

const OVERRIDE_SETTINGS: Record<keyof TenantLimitOverrides, LimitName> = { rate_per_second: 'ratePerSecond', burst: 'burst', task_concurrency: 'tenantTaskConcurrency' };

/**
 * Sets a tenant's overrides (merged with those it has), each checked against the range of its
 * deployment-wide setting. Processes pick the change up within OVERRIDE_CACHE_MS.
 */
export async function setTenantLimits(tenantId: string, changes: Record<keyof TenantLimitOverrides, string | undefined>): Promise<TenantLimitsRecord> {
  const current = await tenantLimitsRepository.get(tenantId);
  const record: TenantLimitsRecord = { ...current, tenant_id: tenantId, updated_at: systemClock.now().toISOString() };
  for (const [field, name] of Object.entries(OVERRIDE_SETTINGS) as [keyof TenantLimitOverrides, LimitName][]) {
    const raw = changes[field];
    if (raw !== undefined) record[field] = parseLimit(name, raw, field);
  }
  await tenantLimitsRepository.put(record);
  return record;
}

export function getTenantLimits(tenantId: string): Promise<TenantLimitsRecord | undefined> {
  return tenantLimitsRepository.get(tenantId);
}

/** Removes a tenant's overrides: the defaults apply again. */
export function clearTenantLimits(tenantId: string): Promise<void> {
  return tenantLimitsRepository.clear(tenantId);
}
