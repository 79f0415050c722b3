import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { admissionBounds, admitted, rejected, type RateLimitDecision, type RateLimitPolicy } from '#shared/domain/rate-limit';

/** Rounds of the two writes before a request that keeps losing races is counted as over budget. */
const MAX_ROUNDS = 4;
/** A bucket is full again (and its item worthless) this long after its TAT; TTL deletes it later. */
const TTL_SLACK_SECONDS = 60;

/**
 * The request budgets (shared/domain/rate-limit.ts), one item per tenant, advanced only by
 * conditional UpdateItems, so any number of Lambda instances share one budget exactly.
 *
 * A busy tenant's request is one write: "TAT += T if now - lag ≤ TAT ≤ now + (burst-1)·T". A
 * rejected request is that same write failing its condition, which hands back the stored TAT (so
 * the Retry-After is exact without a read) and writes nothing. Only a tenant whose bucket has been
 * full a while (TAT older than the lag tolerance, or no item) needs a second write, "TAT = now + T
 * if TAT < now - lag"; its concurrent peers then pass the first write.
 */
export class DynamoRateLimitRepository {
  private get client() {
    return documentClient();
  }

  /**
   * Spends one request of `tenantId`'s budget if it has one. `nowUs` (epoch microseconds) is read
   * again before each write: a time taken long before the write (a slow first attempt) would
   * compare stale bounds with a TAT other requests advanced meanwhile, and refuse wrongly.
   */
  async consume(tenantId: string, policy: RateLimitPolicy, nowUs: () => number): Promise<RateLimitDecision> {
    let now = nowUs();
    for (let round = 0; round < MAX_ROUNDS; round++, now = nowUs()) {
      const { increment, earliestAdvancedTat, latestAdmissibleTat, tatFromIdle } = admissionBounds(policy, now);
      // An upper bound of any TAT this round can leave behind: the item is useless after it.
      const expiresAt = Math.ceil((now + policy.burst * increment) / 1_000_000) + TTL_SLACK_SECONDS;
      try {
        const { Attributes } = await this.client.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.rateLimitBucket(tenantId),
            UpdateExpression: 'SET tat_us = tat_us + :increment, #ttl = :expires',
            ConditionExpression: 'tat_us BETWEEN :earliest AND :latest',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':increment': increment, ':expires': expiresAt, ':earliest': earliestAdvancedTat, ':latest': latestAdmissibleTat },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return admitted(policy, now, Number(Attributes!.tat_us));
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const stored = storedTat(error);
        if (stored !== undefined && stored > latestAdmissibleTat) return rejected(policy, now, stored);
      }
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.rateLimitBucket(tenantId),
            UpdateExpression: 'SET tat_us = :tat, #ttl = :expires, entity = :entity',
            ConditionExpression: 'attribute_not_exists(tat_us) OR tat_us < :earliest',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':tat': tatFromIdle, ':expires': expiresAt, ':earliest': earliestAdvancedTat, ':entity': 'rate_limit_bucket' },
          }),
        );
        return admitted(policy, now, tatFromIdle);
      } catch (error) {
        // Another request refilled the bucket first: the busy-path write decides this one.
        if (!isConditionFailure(error)) throw error;
      }
    }
    // Every round found the bucket full (a TAT older than the tolerance) and lost the reset to a
    // peer whose clock read later still: only a pathological spread of clocks gets here, and the
    // budget is not spent, so the request is admitted without being counted.
    return admitted(policy, now, admissionBounds(policy, now).tatFromIdle);
  }
}

/** The TAT the failed condition saw, from the item DynamoDB returns with the failure. */
function storedTat(error: unknown): number | undefined {
  const item = (error as ConditionalCheckFailedException).Item as Record<string, AttributeValue> | undefined;
  if (!item) return undefined;
  const value = unmarshall(item).tat_us;
  return typeof value === 'number' ? value : undefined;
}

export const rateLimitRepository = new DynamoRateLimitRepository();
