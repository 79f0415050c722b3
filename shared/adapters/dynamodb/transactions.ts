import { TransactionCanceledException, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** True when a transaction failed only because one of its conditions did not hold. */
export function isConditionFailure(error: unknown): boolean {
  if (error instanceof ConditionalCheckFailedException) return true;
  if (error instanceof TransactionCanceledException || (error as { name?: string })?.name === 'TransactionCanceledException') {
    const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
    return reasons.some((reason) => reason.Code === 'ConditionalCheckFailed') && reasons.every((r) => r.Code === 'None' || r.Code === 'ConditionalCheckFailed');
  }
  return (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/** Removes the key and index attributes that only the table needs. */
export function stripKeys<T>(item: Record<string, unknown>): T {
  const { pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, entity, expires_at_epoch, ...rest } = item;
  void [pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, gsi3pk, gsi3sk, entity, expires_at_epoch];
  return rest as T;
}

/** True when a transaction was refused because another one touched one of its items at the same time. */
export function isTransactionConflict(error: unknown): boolean {
  const reasons = (error as Partial<TransactionCanceledException>)?.CancellationReasons ?? [];
  return reasons.some((reason) => reason.Code === 'TransactionConflict') || (error as { name?: string })?.name === 'TransactionConflictException';
}

/** Why each write of a cancelled transaction failed, in the order they were sent ('None' for those that would have applied); undefined for any other error. */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof TransactionCanceledException) && (error as { name?: string })?.name !== 'TransactionCanceledException') return undefined;
  return ((error as TransactionCanceledException).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}
