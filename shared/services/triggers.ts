import { triggerRepository } from '#shared/adapters/dynamodb/trigger-repository';
import { NotFoundError } from '#shared/domain/errors';
import type { Trigger } from '#shared/domain/trigger';

// Reads only: no scheduler, no queue (trigger-admin.ts changes triggers, trigger-runs.ts runs them).

export async function getTrigger(tenantId: string, triggerId: string): Promise<Trigger> {
  const trigger = await triggerRepository.get(tenantId, triggerId);
  if (!trigger) throw new NotFoundError('trigger', triggerId);
  return trigger;
}

export function listTriggers(tenantId: string, query: { type?: string; limit: number; cursor?: string }) {
  return triggerRepository.list(tenantId, query);
}

/** A trigger's runs, newest first; 404 for a trigger that does not exist. */
export async function listRuns(tenantId: string, triggerId: string, limit: number, cursor?: string) {
  await getTrigger(tenantId, triggerId);
  return triggerRepository.listRuns(tenantId, triggerId, limit, cursor);
}
