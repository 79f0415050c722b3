import { tenantSettingsRepository } from '#shared/adapters/dynamodb/tenant-settings-repository';
import { dispatchRestamp } from '#shared/adapters/sqs/retention-dispatcher';
import { adminEvent } from '#shared/domain/admin-events';
import { systemClock } from '#shared/domain/clock';
import type { ServiceEvent } from '#shared/domain/event';
import type { Principal } from '#shared/domain/roles';
import { ConflictError, ServiceUnavailableError } from '#shared/domain/errors';
import { assertAllowed, withPlan, type Plan, type TenantSettings } from '#shared/domain/retention';
import { loadSettings } from '#shared/services/tenant-settings';

/** Compare-and-set rounds before two racing changes end in a 409 for the loser. */
const ATTEMPTS = 4;

/** Queues the re-stamp of `settings.version` unless it already finished. */
async function ensureRestamped(settings: TenantSettings): Promise<void> {
  if ((settings.restamped_version ?? 0) >= settings.version) return;
  try {
    await dispatchRestamp({ tenant_id: settings.tenant_id, version: settings.version });
  } catch (error) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'retention re-stamp not queued', tenant_id: settings.tenant_id, version: settings.version, error: String(error) }));
    // The setting is stored; repeating the same request queues the job (nothing else changes).
    throw new ServiceUnavailableError('The retention was saved, but applying it to existing artifacts could not be queued yet. Repeat the request.');
  }
}

/**
 * Stores `change(settings)` as the next version, re-reading and retrying when another change
 * wins; `eventOf` names the change's event, written in the same transaction.
 */
async function changeSettings(
  tenantId: string,
  change: (settings: TenantSettings) => TenantSettings | undefined,
  eventOf?: (previous: TenantSettings, next: TenantSettings) => ServiceEvent,
): Promise<TenantSettings> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const settings = await loadSettings(tenantId);
    const changed = change(settings);
    if (!changed) return settings;
    const next: TenantSettings = { ...changed, version: settings.version + 1, updated_at: systemClock.now().toISOString() };
    if (await tenantSettingsRepository.save(next, settings.version, eventOf?.(settings, next))) return next;
  }
  throw new ConflictError('settings_changed_concurrently', 'The settings changed while this request was applied; read them and try again.');
}

/**
 * PATCH /settings/retention. The new retention applies to artifacts written from now on at once,
 * and to existing ones through a re-stamp job (docs/retention.md). The same value again changes
 * nothing (and writes no event), but queues the job if the last one never finished (a lost send
 * is repaired by a retry). A change writes `settings.retention_changed` with the principal.
 */
export async function updateRetention(tenantId: string, retentionDays: number | null, principal: Principal): Promise<TenantSettings> {
  const settings = await changeSettings(
    tenantId,
    (current) => {
      assertAllowed(current.plan, retentionDays);
      return current.retention_days === retentionDays ? undefined : { ...current, retention_days: retentionDays };
    },
    (previous, next) =>
      adminEvent('settings.retention_changed', tenantId, principal, { retention_days: next.retention_days, previous_retention_days: previous.retention_days, version: next.version }, systemClock),
  );
  await ensureRestamped(settings);
  return settings;
}

/**
 * Puts the tenant on `plan` (the tenants CLI; billing is outside Gatehouse). A chosen retention
 * the plan does not allow falls back to the plan's default. The caller applies the result to
 * existing artifacts (`restamped_version < version` says whether that is still to do).
 */
export async function setPlan(tenantId: string, plan: Plan): Promise<TenantSettings> {
  const stored = await tenantSettingsRepository.get(tenantId);
  if (stored?.plan === plan) return stored;
  return changeSettings(tenantId, (current) => withPlan(current, plan));
}
