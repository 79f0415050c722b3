import { artifactRetentionRepository, type RestampOutcome } from '#shared/adapters/dynamodb/artifact-retention-repository';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { keys } from '#shared/adapters/dynamodb/keys';
import { GSI1 } from '#shared/adapters/dynamodb/table-definition';
import { tenantSettingsRepository } from '#shared/adapters/dynamodb/tenant-settings-repository';
import { dispatchRestamp } from '#shared/adapters/sqs/retention-dispatcher';
import { stampOf, type RetentionStamp } from '#shared/domain/retention';
import type { RestampJob } from '#shared/domain/retention-job';
import { loadSettings } from '#shared/services/tenant-settings';

/** Tasks per page: a page's artifacts are re-stamped before the cursor moves past them. */
export const RESTAMP_PAGE_SIZE = 25;
/** Artifact writes in flight at once within a page. */
const PARALLEL = 8;

export interface RestampProgress {
  /** `continue` with `next`; `done`: every artifact carries the job's stamp; `outdated`: a newer setting exists. */
  status: 'continue' | 'done' | 'outdated';
  next?: RestampJob;
  counts: Record<RestampOutcome, number>;
}

const scopeOf = (tenantId: string) => `retention|${keys.tasksPartition(tenantId)}`;

/**
 * One page of a re-stamp job. Idempotent: running the same job twice (a redelivered message
 * after a crash) re-reads the same page and writes only what is still different. A job whose
 * version is no longer the tenant's current one stops at once, so the newest setting wins.
 */
export async function restampPage(job: RestampJob, pageSize = RESTAMP_PAGE_SIZE): Promise<RestampProgress> {
  const counts: Record<RestampOutcome, number> = { updated: 0, unchanged: 0, gone: 0, newer: 0 };
  const settings = await loadSettings(job.tenant_id);
  if (settings.version !== job.version) return { status: 'outdated', counts };
  const partition = keys.tasksPartition(job.tenant_id);
  const startKey = await decodeCursor(job.tenant_id, scopeOf(job.tenant_id), job.cursor, { partitionAttribute: GSI1.partitionKey, partition });
  const page = await artifactRetentionRepository.artifactPage(job.tenant_id, startKey, pageSize);
  const stamp: RetentionStamp = stampOf(settings);
  for (let offset = 0; offset < page.artifactIds.length; offset += PARALLEL) {
    const outcomes = await Promise.all(page.artifactIds.slice(offset, offset + PARALLEL).map((id) => artifactRetentionRepository.restamp(job.tenant_id, id, stamp)));
    for (const outcome of outcomes) counts[outcome]++;
  }
  const cursor = await encodeCursor(job.tenant_id, scopeOf(job.tenant_id), page.lastKey);
  if (cursor) return { status: 'continue', next: { tenant_id: job.tenant_id, version: job.version, cursor }, counts };
  await tenantSettingsRepository.markRestamped(job.tenant_id, job.version);
  return { status: 'done', counts };
}

/**
 * Runs pages of a job until it ends or `maxPages` pages are done; returns the job to continue
 * with, if any. The queue consumer re-sends that; the tenants CLI loops until nothing is left.
 */
export async function runRestamp(job: RestampJob, options: { maxPages: number; pageSize?: number; onPage?: (progress: RestampProgress) => void }): Promise<RestampJob | undefined> {
  let current = job;
  for (let pages = 0; pages < options.maxPages; pages++) {
    const progress = await restampPage(current, options.pageSize);
    options.onPage?.(progress);
    if (!progress.next) return undefined;
    current = progress.next;
  }
  return current;
}

/**
 * The queue consumer's share of a job: runs it for `maxPages` pages, then queues the rest with its
 * cursor. The continuation is sent before the message is acknowledged: a crash in between at worst
 * runs the rest twice (writes are idempotent), and a crash before it redelivers the message, which
 * resumes at its cursor. Returns whether the job continues.
 */
export async function continueRestamp(job: RestampJob, options: { maxPages: number }): Promise<boolean> {
  const next = await runRestamp(job, options);
  if (next) await dispatchRestamp(next);
  return next !== undefined;
}
