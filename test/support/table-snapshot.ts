import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { RATE_LIMIT_PARTITION_PREFIX } from '#shared/adapters/dynamodb/keys';

/**
 * Every item of the runtime's table (test-only Scan; the service itself never scans), sorted,
 * as JSON lines, so two snapshots compare with one `toEqual`. API key items are left out: an
 * authenticated request may update the key's `last_used_at`, which is not a change made by the
 * request's route. Neither are rate-limit buckets: any request, refused ones included, may lease
 * tokens of its tenant's budget before anything else runs.
 */
export async function tableSnapshot(ignorePrefixes: string[] = ['APIKEY#', RATE_LIMIT_PARTITION_PREFIX]): Promise<string[]> {
  const client = new DynamoDBClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB, region: process.env.AWS_REGION });
  const items: string[] = [];
  let startKey: Record<string, AttributeValue> | undefined;
  try {
    do {
      const page = await client.send(new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey: startKey, ConsistentRead: true }));
      for (const raw of page.Items ?? []) {
        const item = unmarshall(raw);
        if (ignorePrefixes.some((prefix) => String(item.pk).startsWith(prefix))) continue;
        items.push(canonical(item));
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  } finally {
    client.destroy();
  }
  return items.sort();
}

/** JSON with object keys sorted at every level, so equal items give equal text. */
function canonical(value: unknown): string {
  if (value instanceof Set) return canonical([...value].sort());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
