import { artifactRetentionRepository } from '#shared/adapters/dynamodb/artifact-retention-repository';
import type { RetentionStamps } from '#shared/domain/ports';
import { stampOf } from '#shared/domain/retention';
import { loadSettings } from '#shared/services/tenant-settings';

/**
 * Stamps for the agent runner and approval resolutions: the retention read once per run, and
 * at the end a fresh read that re-stamps whatever was stamped from a version that changed since
 * (a re-stamp job may already have passed those artifacts). One strongly consistent GetItem each.
 */
export const retentionStamps: RetentionStamps = {
  async current(tenantId) {
    return stampOf(await loadSettings(tenantId));
  },
  async settle(tenantId, artifacts) {
    const stamp = stampOf(await loadSettings(tenantId));
    for (const artifact of artifacts) {
      if (artifact.retention_version !== stamp.version) await artifactRetentionRepository.restamp(tenantId, artifact.artifact_id, stamp);
    }
  },
};
