import { InvalidRequestError } from '#shared/domain/errors';
import type { ArtifactApprovalStatus } from '#shared/domain/artifact';

/**
 * Data retention per plan (docs/retention.md): 90 days on free and starter, indefinite on pro and
 * enterprise, changed by the tenant within what the plan allows. Pure rules: what each plan
 * defaults to, what a tenant may choose, and when an artifact expires. No storage here.
 */
export const PLANS = ['free', 'starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** A tenant without a settings item is on this plan (GATEHOUSE_DEFAULT_PLAN may change it locally). */
export const DEFAULT_PLAN: Plan = 'free';

/** Artifacts awaiting approval expire after 7 days if nobody acts on them (docs/retention.md). */
export const GATED_ARTIFACT_DAYS = 7;

/** Longest finite retention any plan may choose: ten years. */
export const LONGEST_RETENTION_DAYS = 3650;

/** What the retention applies to (docs/retention.md explains why tasks and events are kept). */
export const RETENTION_APPLIES_TO = ['artifacts'] as const;

export interface PlanRetentionPolicy {
  /** Days, or null for indefinite. */
  defaultDays: number | null;
  minDays: number;
  maxDays: number;
  /** Whether `null` (keep forever) may be chosen. */
  indefiniteAllowed: boolean;
}

/**
 * Free and starter keep artifacts 90 days and may only shorten that; pro and enterprise keep
 * them indefinitely by default and may choose any period up to ten years instead.
 */
export const RETENTION_POLICIES: Readonly<Record<Plan, PlanRetentionPolicy>> = {
  free: { defaultDays: 90, minDays: 1, maxDays: 90, indefiniteAllowed: false },
  starter: { defaultDays: 90, minDays: 1, maxDays: 90, indefiniteAllowed: false },
  pro: { defaultDays: null, minDays: 1, maxDays: LONGEST_RETENTION_DAYS, indefiniteAllowed: true },
  enterprise: { defaultDays: null, minDays: 1, maxDays: LONGEST_RETENTION_DAYS, indefiniteAllowed: true },
};

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

/** A tenant's settings as stored. `version` counts changes; re-stamp jobs carry the one they apply. */
export interface TenantSettings {
  tenant_id: string;
  plan: Plan;
  /** The tenant's choice; absent means the plan's default. `null` means indefinite. */
  retention_days?: number | null;
  version: number;
  /** The version whose re-stamp of existing artifacts finished. */
  restamped_version?: number;
  updated_at?: string;
}

/** Settings of a tenant that never had any stored: the default plan, nothing chosen. */
export function defaultSettings(tenantId: string, plan: Plan = DEFAULT_PLAN): TenantSettings {
  return { tenant_id: tenantId, plan, version: 0, restamped_version: 0 };
}

export function isAllowed(plan: Plan, days: number | null): boolean {
  const policy = RETENTION_POLICIES[plan];
  if (days === null) return policy.indefiniteAllowed;
  return Number.isInteger(days) && days >= policy.minDays && days <= policy.maxDays;
}

/** The retention in force: the tenant's choice when its plan allows it, else the plan's default. */
export function effectiveRetentionDays(settings: Pick<TenantSettings, 'plan' | 'retention_days'>): number | null {
  const chosen = settings.retention_days;
  if (chosen !== undefined && isAllowed(settings.plan, chosen)) return chosen;
  return RETENTION_POLICIES[settings.plan].defaultDays;
}

/** Throws a 400 with code `retention_not_allowed_on_plan` when the plan does not allow `days`. */
export function assertAllowed(plan: Plan, days: number | null): void {
  if (isAllowed(plan, days)) return;
  const policy = RETENTION_POLICIES[plan];
  const range = `${policy.minDays} to ${policy.maxDays} days${policy.indefiniteAllowed ? ' or null (indefinite)' : ''}`;
  const detail =
    days === null
      ? `Indefinite retention is not available on the ${plan} plan; choose ${range}.`
      : `A retention of ${days} days is not available on the ${plan} plan; choose ${range}.`;
  throw new InvalidRequestError(detail, [{ path: 'body.retention_days', message: `allowed on the ${plan} plan: ${range}` }], 'retention_not_allowed_on_plan');
}

/**
 * The settings after a plan change: a chosen retention the new plan does not allow (a downgrade
 * from indefinite, say) is dropped, so the tenant falls back to the new plan's default.
 */
export function withPlan(settings: TenantSettings, plan: Plan): TenantSettings {
  const { retention_days, ...rest } = settings;
  const keep = retention_days !== undefined && isAllowed(plan, retention_days);
  return { ...rest, plan, ...(keep ? { retention_days } : {}) };
}

const DAY_MS = 86_400_000;

/**
 * When an artifact expires, or null for never: `created_at` plus the retention, and for an
 * approval-gated artifact nobody acted on (still pending, or its approval expired) at most
 * 7 days. Rounded up to a whole second, so the ISO time and the TTL epoch agree exactly.
 */
export function artifactExpiry(artifact: { created_at: string; approval_status?: ArtifactApprovalStatus }, retentionDays: number | null): string | null {
  const created = Date.parse(artifact.created_at);
  const limits: number[] = [];
  if (retentionDays !== null) limits.push(created + retentionDays * DAY_MS);
  if (artifact.approval_status === 'pending' || artifact.approval_status === 'expired') limits.push(created + GATED_ARTIFACT_DAYS * DAY_MS);
  if (limits.length === 0) return null;
  return new Date(Math.ceil(Math.min(...limits) / 1000) * 1000).toISOString();
}

/** The DynamoDB TTL attribute's value (epoch seconds) for an expiry time. */
export function expiryEpoch(expiresAt: string): number {
  return Math.ceil(Date.parse(expiresAt) / 1000);
}

/** True once `now` reached the expiry: the item reads as gone even before TTL deletes it. */
export function isPastExpiry(expiresAtEpoch: unknown, now: Date): boolean {
  return typeof expiresAtEpoch === 'number' && expiresAtEpoch * 1000 <= now.getTime();
}

/** What artifacts of one run are stamped with: the retention and the settings version it came from. */
export interface RetentionStamp {
  version: number;
  retention_days: number | null;
}

export function stampOf(settings: TenantSettings): RetentionStamp {
  return { version: settings.version, retention_days: effectiveRetentionDays(settings) };
}

/** GET/PATCH /settings/retention. */
export function renderRetention(settings: TenantSettings) {
  const policy = RETENTION_POLICIES[settings.plan];
  return {
    plan: settings.plan,
    retention_days: effectiveRetentionDays(settings),
    default_retention_days: policy.defaultDays,
    min_retention_days: policy.minDays,
    max_retention_days: policy.indefiniteAllowed ? null : policy.maxDays,
    longest_finite_retention_days: policy.maxDays,
    indefinite_allowed: policy.indefiniteAllowed,
    applies_to: [...RETENTION_APPLIES_TO],
    updated_at: settings.updated_at ?? null,
  };
}
