import { findingRepository } from '#shared/adapters/dynamodb/finding-repository';
import { occurrenceRepository } from '#shared/adapters/dynamodb/occurrence-repository';
import { projectRepository } from '#shared/adapters/dynamodb/project-repository';
import { ruleHistoryRepository } from '#shared/adapters/dynamodb/rule-history-repository';
import { scanRunRepository } from '#shared/adapters/dynamodb/scan-run-repository';

export type { HistoryEntry } from '#shared/adapters/dynamodb/rule-history-repository';

/**
 * Projects, scans, findings and their history, as the scan services use them: one object over
 * the per-entity repositories (each in its own module, beside this one).
 */
export const scanRepository = { ...projectRepository, ...scanRunRepository, ...occurrenceRepository, ...findingRepository, ...ruleHistoryRepository };
