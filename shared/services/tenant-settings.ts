import { tenantSettingsRepository } from '#shared/adapters/dynamodb/tenant-settings-repository';
import { getOptionalStringFromEnv } from '#shared/config/env';
import { DEFAULT_PLAN, defaultSettings, isPlan, PLANS, type Plan, type TenantSettings } from '#shared/domain/retention';

/**
 * The plan of tenants without a settings item: `free`, unless GATEHOUSE_DEFAULT_PLAN names
 * another (the local runtime's way to try the paid plans; the AWS stack does not set it).
 */
export function defaultPlan(): Plan {
  const configured = getOptionalStringFromEnv('GATEHOUSE_DEFAULT_PLAN');
  if (configured === undefined) return DEFAULT_PLAN;
  if (!isPlan(configured)) throw new Error(`GATEHOUSE_DEFAULT_PLAN must be one of ${PLANS.join(', ')}; got '${configured}'.`);
  return configured;
}

/** The tenant's settings, or the default plan's when it never stored any. */
export async function loadSettings(tenantId: string): Promise<TenantSettings> {
  return (await tenantSettingsRepository.get(tenantId)) ?? defaultSettings(tenantId, defaultPlan());
}
