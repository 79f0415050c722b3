import { ACTIVE_TASK_SHARDS, defineEntity, indexKey, shardOf, tenant, type Key } from '#shared/adapters/dynamodb/entities/entity';

const scansPartition = (tenantId: string, projectId: string) => `${tenant(tenantId)}#PROJECT#${projectId}#SCANS`;
const activeScanPartition = (shard: number) => `ACTIVE_SCANS#${shard}`;

/** A scan with its detector runs: listed per project; in gsi3 while it has work left. */
export const scanEntity = defineEntity({
  entity: 'scan',
  tenantScoped: true,
  keys: {
    scan: (tenantId: string, scanId: string): Key => ({ pk: `${tenant(tenantId)}#SCAN#${scanId}`, sk: 'SCAN' }),
    scanListing: (tenantId: string, projectId: string, scanId: string) => indexKey('gsi1', scansPartition(tenantId, projectId), scanId),
    scansPartition,
    activeScan: (tenantId: string, scanId: string) => indexKey('gsi3', activeScanPartition(shardOf(scanId, ACTIVE_TASK_SHARDS)), `${tenantId}#${scanId}`),
  },
  primaryKey: 'scan',
  indexes: [
    { index: 'gsi1', key: 'scanListing', copies: 'ALL' },
    {
      index: 'gsi3',
      key: 'activeScan',
      // What identifies the scan, set at creation; the sweeper reads the scan itself from the table.
      copies: ['tenant_id', 'scan_id'],
      sparse: { rule: 'while pending or running', holds: (item) => item.status === 'pending' || item.status === 'running' },
    },
  ],
  sharedPartitions: { activeScanPartition },
});
