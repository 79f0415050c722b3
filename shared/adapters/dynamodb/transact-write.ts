import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { isTransactionConflict } from '#shared/adapters/dynamodb/transactions';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const CONFLICT_ATTEMPTS = 5;

/**
 * One TransactWriteItems call, sent again when DynamoDB refused it because another transaction
 * touched one of its items meanwhile (a shared usage counter): a refused transaction applied
 * nothing, and its conditions still decide the retry, so nothing is written twice.
 */
export async function transactWrite(items: TransactItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}
