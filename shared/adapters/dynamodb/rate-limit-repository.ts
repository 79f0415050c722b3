import { ConditionalCheckFailedException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { TTL_ATTRIBUTE } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { admissionBounds, availableTokens, emissionInterval, type RateLimitPolicy } from '#shared/domain/rate-limit';
import type { BucketStore, TakeResult } from '#shared/domain/rate-limit-lease';

/** Rounds of writes before a take that keeps losing races gives up counting. */
const MAX_ROUNDS = 4;
/** A bucket is full again (and its item worthless) this long after its TAT; TTL deletes it later. */
const TTL_SLACK_SECONDS = 60;

/**
 * The request budgets (shared/domain/rate-limit.ts), one item per tenant, advanced only by
 * conditional UpdateItems, so any number of Lambda instances share one budget exactly. Instances
 * take a few tokens at once and spend them in memory (shared/domain/rate-limit-lease.ts).
 *
 * A busy tenant's take of n tokens is one write: "TAT += n·T if now - lag ≤ TAT ≤ now + (burst-n)·T".
 * A failed condition hands back the stored TAT (so no read is needed): fewer tokens left than asked
 * is a second write for those; none left is a refusal with an exact Retry-After, and nothing is
 * written. Only a tenant whose bucket has been full a while (TAT older than the lag tolerance, or
 * no item) needs the other write, "TAT = now + n·T if TAT < now - lag"; its concurrent peers then
 * pass the first write.
 */
export class DynamoRateLimitRepository implements BucketStore {
  private get client() {
    return documentClient();
  }

  /**
   * Takes up to `wanted` tokens of `tenantId`'s budget, as many as fit. `nowUs` (epoch
   * microseconds) is read again before each write: a time taken long before the write (a slow
   * first attempt) would compare stale bounds with a TAT other requests advanced meanwhile.
   */
  async take(tenantId: string, policy: RateLimitPolicy, wanted: number, nowUs: () => number): Promise<TakeResult> {
    let tokens = Math.max(1, Math.min(wanted, policy.burst));
    let now = nowUs();
    for (let round = 0; round < MAX_ROUNDS; round++, now = nowUs()) {
      const { increment, earliestAdvancedTat, latestAdmissibleTat, tatFromIdle } = admissionBounds(policy, now, tokens);
      // An upper bound of any TAT this round can leave behind: the item is useless after it.
      const expiresAt = Math.ceil((now + policy.burst * emissionInterval(policy)) / 1_000_000) + TTL_SLACK_SECONDS;
      let stored: number | undefined;
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
        return { granted: tokens, nowUs: now, tatAfter: Number(Attributes!.tat_us) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        stored = storedTat(error);
      }
      if (stored !== undefined && stored >= earliestAdvancedTat) {
        // A busy bucket with fewer tokens than asked: take what is left, or refuse.
        const left = availableTokens(policy, now, stored);
        if (left < 1) return { nowUs: now, tatBefore: stored };
        tokens = left;
        continue;
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
        return { granted: tokens, nowUs: now, tatAfter: tatFromIdle };
      } catch (error) {
        // Another instance refilled the bucket first: the busy-path write decides this one.
        if (!isConditionFailure(error)) throw error;
      }
    }
    // Every round lost a race (a bucket found full, whose reset a peer with a later clock won, or
    // a bucket others kept draining below what was asked): only a pathological spread of clocks
    // or contention gets here, and one token is admitted without being counted.
    return { granted: 1, nowUs: now, tatAfter: admissionBounds(policy, now).tatFromIdle };
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
