import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { isTransactionConflict } from '#shared/adapters/dynamodb/transactions';
import { fullJitterBackoff, type RetryPolicy } from '#shared/adapters/dynamodb/backoff';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** As many tries as a batch gets: a busy tenant's creates all touch its few usage counter shards. */
export const CONFLICT_RETRY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 20, maxDelayMs: 1_000 };

/**
 * One TransactWriteItems call, sent again when DynamoDB refused it because another transaction
 * touched one of its items meanwhile (a shared usage counter): a refused transaction applied
 * nothing, and its conditions still decide the retry, so nothing is written twice.
 */
export async function transactWrite(items: TransactItem[], retry: RetryPolicy = CONFLICT_RETRY): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (attempt >= retry.maxAttempts || !isTransactionConflict(error)) throw error;
      await fullJitterBackoff(attempt - 1, retry);
    }
  }
}
