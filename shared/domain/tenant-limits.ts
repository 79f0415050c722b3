/**
 * Limits an operator set for one tenant (`npm run keys -- limits`); each absent field falls back
 * to the deployment's default (shared/config/limits.ts).
 */
export interface TenantLimitOverrides {
  rate_per_second?: number;
  burst?: number;
  task_concurrency?: number;
}

export interface TenantLimitsRecord extends TenantLimitOverrides {
  tenant_id: string;
  updated_at: string;
}

/** The limits that apply to one tenant. */
export interface EffectiveTenantLimits {
  ratePerSecond: number;
  burst: number;
  taskConcurrency: number;
}
