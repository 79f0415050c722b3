import { localPartOf, triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import { inboundMailAvailable, newInboundAddress } from '#shared/config/inbound-mail';
import { scheduler } from '#shared/adapters/scheduler/scheduler';
import { systemClock, type Clock } from '#shared/domain/clock';
import { firedByEventBridge, nextRuns } from '#shared/domain/cron-schedule';
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import { newId } from '#shared/domain/ids';
import { tenantCountRepository } from '#shared/adapters/dynamodb/tenant-count-repository';
import { triggerScheduleName, type Trigger, type TriggerSource, type TriggerTask } from '#shared/domain/trigger';
import { getTrigger } from '#shared/services/triggers';
import { validatedTrigger } from '#shared/services/trigger-validation';

export interface CreateTriggerRequest {
  name: string;
  source: TriggerSource;
  task: TriggerTask;
  enabled: boolean;
}

export type UpdateTriggerRequest = Partial<CreateTriggerRequest>;

/**
 * A mail trigger needs the deployment to receive mail: where it does not (the stack option
 * `gatehouse:inboundMail` is off, as in regions without SES receiving), its address would never get any.
 */
function assertMailSourceAvailable(source: TriggerSource | undefined): void {
  if (source?.type === 'mail' && !inboundMailAvailable()) {
    throw new ConflictError('inbound_mail_unavailable', "Inbound mail is not available in this deployment (Amazon SES does not receive mail in its region, or it was deployed with inbound mail off), so a mail trigger would never run. Use a schedule, event or chat trigger.");
  }
}

/**
 * Makes the trigger's schedule match it: an enabled schedule trigger has its recurring schedule
 * (one per trigger on AWS), anything else none. EventBridge skips a run whose local time a DST
 * change skips, where ours runs at the gap's end: a one-time schedule covers the next such run.
 */
export async function syncTriggerSchedule(trigger: Trigger, clock: Clock = systemClock): Promise<void> {
  const name = triggerScheduleName(trigger);
  if (trigger.source.type !== 'schedule' || !trigger.enabled) {
    await scheduler().cancel(name);
    return;
  }
  const { cron, timezone, start_at, end_at } = trigger.source;
  const payload = { tenant_id: trigger.tenant_id, trigger_id: trigger.trigger_id };
  await scheduler().scheduleRecurring({ name, cron, timezone, ...(start_at ? { start_at } : {}), ...(end_at ? { end_at } : {}), target: 'trigger-fire', payload });
  await armGapRun(trigger, clock.now());
}

/** The one-time schedule of the next run after `after`, when it is one EventBridge will not fire (a DST gap). */
export async function armGapRun(trigger: Trigger, after: Date): Promise<void> {
  if (trigger.source.type !== 'schedule') return;
  const [next] = nextRuns(trigger.source, after, 1);
  if (!next || firedByEventBridge(trigger.source, next)) return;
  await scheduler().scheduleOnce({
    name: `tgap-${trigger.trigger_id}-${Math.floor(next.getTime() / 1000)}`,
    at: next,
    target: 'trigger-fire',
    payload: { tenant_id: trigger.tenant_id, trigger_id: trigger.trigger_id, scheduled_time: next.toISOString() },
  });
}

/**
 * Creates a trigger. Its schedule is made first: a schedule whose trigger was never stored fires,
 * finds nothing and says so; a stored schedule trigger without its schedule would never run.
 */
export async function createTrigger(tenantId: string, request: CreateTriggerRequest, clock: Clock = systemClock): Promise<Trigger> {
  assertMailSourceAvailable(request.source);
  const { source: checked, task } = await validatedTrigger(tenantId, request.source, request.task, clock.now());
  const source = checked.type === 'mail' ? { ...checked, address: newInboundAddress() } : checked;
  await tenantCountRepository.ensureRoom(tenantId, 'triggers');
  const now = clock.now();
  const trigger: Trigger = {
    trigger_id: newId('trg', now.getTime()),
    tenant_id: tenantId,
    name: request.name,
    source,
    task,
    enabled: request.enabled,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await syncTriggerSchedule(trigger, clock);
  // Refused (the cap, reached meanwhile): the schedule made for it goes too.
  await triggerRepository.create(trigger).catch(async (error: unknown) => {
    await scheduler().cancel(triggerScheduleName(trigger));
    throw error;
  });
  return trigger;
}

/**
 * Changes a trigger (`enabled: false` pauses it, `true` resumes). A schedule changed or resumed
 * counts from now: the times it would have run before are not runs it missed.
 */
export async function updateTrigger(tenantId: string, triggerId: string, request: UpdateTriggerRequest, clock: Clock = systemClock): Promise<Trigger> {
  // Only a new mail source is refused: an existing mail trigger can still be renamed, paused and deleted.
  assertMailSourceAvailable(request.source);
  const current = await getTrigger(tenantId, triggerId);
  const { source: checked, task } = await validatedTrigger(tenantId, request.source ?? current.source, request.task ?? current.task, clock.now());
  // A mail trigger keeps its address through changes; one that becomes a mail trigger gets one.
  const address = current.source.type === 'mail' ? current.source.address : undefined;
  const source = checked.type === 'mail' ? { ...checked, address: address ?? newInboundAddress() } : checked;
  const now = clock.now().toISOString();
  const rescheduled = request.source !== undefined || (request.enabled === true && !current.enabled);
  const updated: Trigger = {
    ...current,
    name: request.name ?? current.name,
    source,
    task,
    enabled: request.enabled ?? current.enabled,
    updated_at: now,
    ...(rescheduled && source.type === 'schedule' ? { last_scheduled_for: now } : {}),
  };
  if (source.type === 'mail' && !address) await triggerRepository.claimAddress(updated);
  if (!(await triggerRepository.replace(updated))) throw new NotFoundError('trigger', triggerId);
  if (address && source.type !== 'mail') await triggerRepository.releaseAddress(localPartOf(address));
  await syncTriggerSchedule(updated, clock);
  return updated;
}

/** Deletes the trigger and its schedule (its runs go with it; the tasks it started stay). */
export async function deleteTrigger(tenantId: string, triggerId: string): Promise<void> {
  const trigger = await getTrigger(tenantId, triggerId);
  await scheduler().cancel(triggerScheduleName(trigger));
  await triggerRepository.delete(tenantId, triggerId);
  if (trigger.source.type === 'mail' && trigger.source.address) await triggerRepository.releaseAddress(localPartOf(trigger.source.address));
}
