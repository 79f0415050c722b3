import { agentRepository } from '#shared/adapters/dynamodb/agent-repository';
import { isCustomAgent } from '#shared/domain/agent-deployment';
import type { CustomTaskType } from '#shared/domain/custom-agent';

/**
 * A custom agent's manifest cannot change once deployed, so a process keeps what it read: every
 * worker call checks against it, and a manifest is up to 64 KB of strongly consistent reads.
 */
const CACHE_MS = 5 * 60_000;
const cache = new Map<string, { at: number; taskTypes: Map<string, CustomTaskType> | undefined }>();

/** The task type of the tenant's custom agent `slug`, or undefined (not deployed, built in, no such type). */
export async function customTaskTypeOf(tenantId: string, slug: string, taskType: string): Promise<CustomTaskType | undefined> {
  const key = `${tenantId}\u0000${slug}`;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > CACHE_MS) {
    const deployment = await agentRepository.findBySlug(tenantId, slug);
    const manifest = deployment && isCustomAgent(deployment) ? deployment.manifest : undefined;
    entry = { at: Date.now(), taskTypes: manifest ? new Map(manifest.task_types.map((type) => [type.task_type, type])) : undefined };
    // Only a found manifest is kept: an agent deployed a moment later must be seen at once.
    if (entry.taskTypes) cache.set(key, entry);
  }
  return entry.taskTypes?.get(taskType);
}
