import { apiKeyRepository, type KeyBindingWrite } from '#shared/adapters/dynamodb/api-key-repository';
import { keyBindingJobRepository } from '#shared/adapters/dynamodb/key-binding-job-repository';
import { adminEvent } from '#shared/domain/admin-events';
import { boundPersonOf, roleOf, type ApiKeyRecord } from '#shared/domain/api-key';
import { systemClock, type Clock } from '#shared/domain/clock';
import { CAP_REASON, keyBindingAction, type KeyBindingJob } from '#shared/domain/key-binding';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';

/** Reads and writes of one job before it is left for the next run: a key changed meanwhile costs one. */
const ATTEMPTS = 3;

export interface KeyBindingReport {
  jobsDone: number;
  keysCapped: number;
  keysRevoked: number;
}

/** The changes `job` makes to the live keys bound to its person, each with its event. */
function writesFor(job: KeyBindingJob, records: ApiKeyRecord[], clock: Clock): KeyBindingWrite[] {
  const reason = CAP_REASON[job.change];
  const writes: KeyBindingWrite[] = [];
  for (const record of records) {
    if (record.revoked_at || boundPersonOf(record) !== job.user_id) continue;
    const verdict = keyBindingAction(roleOf(record), job);
    const base = { key_id: record.key_id, name: record.name ?? null, bound_to: job.user_id, reason, ...(record.agent ? { agent: record.agent } : {}) };
    if (verdict.action === 'cap') {
      const event = adminEvent('api_key.role_capped', job.tenant_id, job.actor, { ...base, role: verdict.role, previous_role: roleOf(record), granted_role: record.granted_role ?? roleOf(record) }, clock);
      writes.push({ record, event, action: 'cap', role: verdict.role });
    } else if (verdict.action === 'revoke') {
      const event = adminEvent('api_key.revoked', job.tenant_id, job.actor, { ...base, role: roleOf(record) }, clock);
      writes.push({ record, event, action: 'revoke', reason, now: clock.now().toISOString() });
    }
  }
  return writes;
}

/**
 * Applies one job: caps or revokes every live key bound to its person, then deletes the job.
 * Safe to run twice or to die half-way: a key already capped or revoked needs nothing (and gets
 * no second event), and the job stays until every key is done. A key changed while the job ran
 * (revoked by an admin meanwhile) makes it read the keys again.
 */
export async function applyKeyBindingJob(job: KeyBindingJob, clock: Clock = systemClock): Promise<Omit<KeyBindingReport, 'jobsDone'>> {
  for (let attempt = 1; ; attempt++) {
    const writes = writesFor(job, await apiKeyRepository.list(job.tenant_id), clock);
    try {
      await apiKeyRepository.applyBindingChanges(writes);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isConditionFailure(error)) throw error;
      continue;
    }
    await keyBindingJobRepository.complete(job);
    return { keysCapped: writes.filter((write) => write.action === 'cap').length, keysRevoked: writes.filter((write) => write.action === 'revoke').length };
  }
}

/**
 * Runs the pending jobs (the stuck-work sweeper's recurring run calls this), oldest tenant first.
 * A job that fails is reported through `onFailure` and stays for the next run; the others go on.
 */
export async function runKeyBindingJobs(options: { clock?: Clock; mayAct?: () => boolean; onFailure?: (job: KeyBindingJob, error: unknown) => void } = {}): Promise<KeyBindingReport> {
  const report: KeyBindingReport = { jobsDone: 0, keysCapped: 0, keysRevoked: 0 };
  for await (const job of keyBindingJobRepository.pending()) {
    if (options.mayAct && !options.mayAct()) break;
    try {
      const done = await applyKeyBindingJob(job, options.clock);
      report.jobsDone++;
      report.keysCapped += done.keysCapped;
      report.keysRevoked += done.keysRevoked;
    } catch (error) {
      options.onFailure?.(job, error);
    }
  }
  return report;
}
