import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '#shared/domain/errors';
import {
  artifactExpiry,
  assertAllowed,
  defaultSettings,
  effectiveRetentionDays,
  expiryEpoch,
  isAllowed,
  isPastExpiry,
  renderRetention,
  withPlan,
  type Plan,
} from '#shared/domain/retention';
import { updateRetentionBody } from '#functions/settings/schemas';

const DAY = 86_400_000;
const created = '2026-01-10T08:30:00.000Z';
const plus = (days: number) => new Date(Date.parse(created) + days * DAY).toISOString();

describe('retention policy per plan', () => {
  it.each([
    ['free', 90, 90],
    ['starter', 90, 90],
    ['pro', null, null],
    ['enterprise', null, null],
  ] as const)('defaults %s to %s days (max %s)', (plan, days, max) => {
    const view = renderRetention(defaultSettings('t', plan));

    expect(view).toEqual({
      plan,
      retention_days: days,
      default_retention_days: days,
      min_retention_days: 1,
      max_retention_days: max,
      longest_finite_retention_days: plan === 'free' || plan === 'starter' ? 90 : 3650,
      indefinite_allowed: days === null,
      applies_to: ['artifacts'],
      updated_at: null,
    });
  });

  it('lets free and starter only shorten the 90 days, never keep forever', () => {
    for (const plan of ['free', 'starter'] as const) {
      expect(isAllowed(plan, 1)).toBe(true);
      expect(isAllowed(plan, 90)).toBe(true);
      expect(isAllowed(plan, 91)).toBe(false);
      expect(isAllowed(plan, null)).toBe(false);
      expect(isAllowed(plan, 0)).toBe(false);
      expect(isAllowed(plan, 30.5)).toBe(false);
    }
  });

  it('lets pro and enterprise keep forever or choose up to ten years', () => {
    for (const plan of ['pro', 'enterprise'] as const) {
      expect(isAllowed(plan, null)).toBe(true);
      expect(isAllowed(plan, 1)).toBe(true);
      expect(isAllowed(plan, 3650)).toBe(true);
      expect(isAllowed(plan, 3651)).toBe(false);
    }
  });

  it('refuses what the plan does not allow with retention_not_allowed_on_plan and a detail naming the range', () => {
    const refusal = (plan: Plan, days: number | null) => {
      try {
        assertAllowed(plan, days);
      } catch (error) {
        return error;
      }
      return undefined;
    };

    const indefinite = refusal('free', null) as InvalidRequestError;
    expect(indefinite).toBeInstanceOf(InvalidRequestError);
    expect(indefinite.code).toBe('retention_not_allowed_on_plan');
    expect(indefinite.message).toBe('Indefinite retention is not available on the free plan; choose 1 to 90 days.');
    expect((refusal('starter', 120) as InvalidRequestError).message).toBe('A retention of 120 days is not available on the starter plan; choose 1 to 90 days.');
    expect(refusal('pro', null)).toBeUndefined();
  });

  it('uses the chosen retention, or the plan default when nothing (or nothing allowed) is chosen', () => {
    expect(effectiveRetentionDays({ plan: 'free', retention_days: 30 })).toBe(30);
    expect(effectiveRetentionDays({ plan: 'pro' })).toBeNull();
    expect(effectiveRetentionDays({ plan: 'pro', retention_days: 400 })).toBe(400);
    expect(effectiveRetentionDays({ plan: 'free', retention_days: null })).toBe(90);
  });

  it('drops a choice the new plan does not allow on a plan change, and keeps one it allows', () => {
    const pro = { ...defaultSettings('t', 'pro'), retention_days: null, version: 3 };

    expect(withPlan(pro, 'free')).toEqual({ tenant_id: 't', plan: 'free', version: 3, restamped_version: 0 });
    expect(withPlan({ ...pro, retention_days: 30 }, 'starter').retention_days).toBe(30);
    expect(effectiveRetentionDays(withPlan({ ...pro, retention_days: 400 }, 'free'))).toBe(90);
  });

  it('accepts only whole days between 1 and 3650, or null, and no other field, in a PATCH body', () => {
    expect(updateRetentionBody.safeParse({ retention_days: 30 }).success).toBe(true);
    expect(updateRetentionBody.safeParse({ retention_days: null }).success).toBe(true);
    for (const bad of [{}, { retention_days: 0 }, { retention_days: 3651 }, { retention_days: 1.5 }, { retention_days: '30' }, { retention_days: 30, plan: 'pro' }, null, []]) {
      expect(updateRetentionBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('artifact expiry', () => {
  it('is created_at plus the retention, or never when indefinite', () => {
    expect(artifactExpiry({ created_at: created }, 90)).toBe(plus(90));
    expect(artifactExpiry({ created_at: created }, null)).toBeNull();
  });

  it('is at most 7 days for an approval-gated artifact nobody acted on, and the retention once acted on', () => {
    expect(artifactExpiry({ created_at: created, approval_status: 'pending' }, null)).toBe(plus(7));
    expect(artifactExpiry({ created_at: created, approval_status: 'expired' }, 90)).toBe(plus(7));
    expect(artifactExpiry({ created_at: created, approval_status: 'pending' }, 3)).toBe(plus(3));
    expect(artifactExpiry({ created_at: created, approval_status: 'approved' }, 90)).toBe(plus(90));
    expect(artifactExpiry({ created_at: created, approval_status: 'denied' }, null)).toBeNull();
  });

  it('rounds up to a whole second, so the ISO time and the TTL epoch name the same instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2040-01-01') }),
        fc.option(fc.integer({ min: 1, max: 3650 }), { nil: null }),
        fc.constantFrom(undefined, 'pending', 'approved', 'denied', 'expired'),
        (createdMs, days, status) => {
          const createdAt = new Date(createdMs).toISOString();
          const expiresAt = artifactExpiry({ created_at: createdAt, approval_status: status }, days);
          const gatedAndWaiting = status === 'pending' || status === 'expired';
          if (days === null && !gatedAndWaiting) return expiresAt === null;
          const expiresMs = Date.parse(expiresAt!);
          const limit = Math.min(days === null ? Infinity : days * DAY, gatedAndWaiting ? 7 * DAY : Infinity);
          return expiresMs % 1000 === 0 && expiresMs >= createdMs + limit && expiresMs < createdMs + limit + 1000 && expiryEpoch(expiresAt!) * 1000 === expiresMs;
        },
      ),
    );
  });

  it('reads as past from the expiry second on, and never without an expiry', () => {
    const epoch = expiryEpoch(plus(90));

    expect(isPastExpiry(epoch, new Date(Date.parse(plus(90)) - 1))).toBe(false);
    expect(isPastExpiry(epoch, new Date(plus(90)))).toBe(true);
    expect(isPastExpiry(undefined, new Date('2100-01-01'))).toBe(false);
  });
});
