import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { admissionBounds, admitted, rejected, type RateLimitDecision, type RateLimitPolicy } from '#shared/domain/rate-limit';

/** Rounds of the two writes before a request that keeps losing races is counted as over budget. */
const MAX_ROUNDS = 3;
/** A bucket is full again (and its item worthless) this long after its TAT; TTL deletes it later. */
const TTL_SLACK_SECONDS = 60;

/**
 * The request budgets (shared/domain/rate-limit.ts), one item per tenant, advanced only by
 * conditional UpdateItems, so any number of Lambda instances share one budget exactly.
 *
 * A busy tenant's request is one write: "TAT += T if now ≤ TAT ≤ now + (burst-1)·T". A rejected
 * request is that same write failing its condition, which hands back the stored TAT (so the
 * Retry-After is exact without a read) and writes nothing. Only a tenant whose bucket was full
 * (TAT in the past, or no item) needs a second write, "TAT = now + T if TAT < now".
 */
export class DynamoRateLimitRepository {
  private get client() {
    return documentClient();
  }

  /** Spends one request of `tenantId`'s budget at `nowUs` (epoch microseconds) if it has one. */
  async consume(tenantId: string, policy: RateLimitPolicy, nowUs: number): Promise<RateLimitDecision> {
    const { increment, latestAdmissibleTat, tatFromIdle } = admissionBounds(policy, nowUs);
    // An upper bound of any TAT this call can leave behind: the item is useless after it.
    const expiresAt = Math.ceil((nowUs + policy.burst * increment) / 1_000_000) + TTL_SLACK_SECONDS;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        const { Attributes } = await this.client.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.rateLimitBucket(tenantId),
            UpdateExpression: 'SET tat_us = tat_us + :increment, #ttl = :expires',
            ConditionExpression: 'tat_us BETWEEN :now AND :latest',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':increment': increment, ':expires': expiresAt, ':now': nowUs, ':latest': latestAdmissibleTat },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return admitted(policy, nowUs, Number(Attributes!.tat_us));
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const stored = storedTat(error);
        if (stored !== undefined && stored > latestAdmissibleTat) return rejected(policy, nowUs, stored);
      }
      try {
        await this.client.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.rateLimitBucket(tenantId),
            UpdateExpression: 'SET tat_us = :tat, #ttl = :expires, entity = :entity',
            ConditionExpression: 'attribute_not_exists(tat_us) OR tat_us < :now',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':tat': tatFromIdle, ':expires': expiresAt, ':now': nowUs, ':entity': 'rate_limit_bucket' },
          }),
        );
        return admitted(policy, nowUs, tatFromIdle);
      } catch (error) {
        // Another request refilled the bucket first: the busy-path write decides this one.
        if (!isConditionFailure(error)) throw error;
      }
    }
    // Lost every race: so many requests arrive at once that the budget is as good as spent.
    return rejected(policy, nowUs, latestAdmissibleTat + increment);
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
