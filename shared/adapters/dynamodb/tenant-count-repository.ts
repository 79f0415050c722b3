import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { CONFLICT_RETRY, transactWrite, type TransactItem } from '#shared/adapters/dynamodb/transact-write';
import { cancellationCodes, isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { systemClock } from '#shared/domain/clock';
import { capReached, tenantCap, type CappedKind } from '#shared/domain/tenant-caps';

/** How a tenant's existing items of a kind are counted, once, when its counter does not exist yet. */
export type CountExisting = () => Promise<number>;

/** Rounds of a counted write: a missing counter is seeded once, a slot freed meanwhile is tried again. */
const ROUNDS = 4;

/**
 * The counter is one hot item by design: a burst of creations keeps conflicting on it, and each
 * conflict is a retry, not a refusal, for six times the tries of an ordinary transaction.
 */
const HOT_COUNTER_RETRY = { ...CONFLICT_RETRY, maxAttempts: CONFLICT_RETRY.maxAttempts * 6 };

/** +1 while the count is below the cap (a missing counter fails it: it is seeded first). */
function raise(tenantId: string, kind: CappedKind, cap: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.tenantCount(tenantId, kind),
      UpdateExpression: 'ADD #count :one',
      ConditionExpression: '#count < :cap',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':cap': cap },
    },
  };
}

/** −1, only on a counter that exists (a missing one is seeded first, from the items still there). */
function lower(tenantId: string, kind: CappedKind): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.tenantCount(tenantId, kind),
      UpdateExpression: 'ADD #count :minusOne',
      ConditionExpression: 'attribute_exists(#count)',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  };
}

/**
 * The per-tenant count caps as conditional counters. The counter joins the transaction that
 * creates (or deletes) the item it counts, so the count is exactly the items whose write won, and
 * a create past the cap writes nothing.
 *
 * A tenant that had items before counters existed has none: its counter is seeded lazily, the
 * first time a create or delete of that kind finds it missing, by counting its items once and
 * putting the counter only if no other request did meanwhile. Lazy rather than a migration job:
 * nothing has to run between deploy and the first request, and idle tenants never pay for it.
 * While a counter is missing no create or delete of the kind can apply (both need it), so the
 * items counted cannot change under the count.
 */
export class DynamoTenantCountRepository {
  private get client() {
    return documentClient();
  }

  /** The tenant's counted items of a kind, or undefined while its counter is not seeded. */
  async current(tenantId: string, kind: CappedKind): Promise<number | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.tenantCount(tenantId, kind), ConsistentRead: true }));
    return typeof Item?.count === 'number' ? Item.count : undefined;
  }

  /**
   * A fast refusal before costly work (a provider check, an encryption): 409 when the tenant is
   * at its cap already. Not the enforcement, which is the create's own condition.
   */
  async ensureRoom(tenantId: string, kind: CappedKind): Promise<void> {
    const cap = tenantCap(kind);
    const count = await this.current(tenantId, kind);
    if (count !== undefined && count >= cap) throw capReached(kind, cap);
  }

  /**
   * Applies `writes` (the item's creation) with the counter raised, in one transaction; 409 (the
   * kind's limit problem) when the tenant is at its cap. A failure of another write's condition
   * is thrown as DynamoDB gave it, for the caller's own handling.
   */
  async create(tenantId: string, kind: CappedKind, writes: TransactItem[], countExisting: CountExisting): Promise<void> {
    const cap = tenantCap(kind);
    for (let round = 0; round < ROUNDS; round++) {
      try {
        await transactWrite([raise(tenantId, kind, cap), ...writes], HOT_COUNTER_RETRY);
        return;
      } catch (error) {
        if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
        const count = await this.current(tenantId, kind);
        if (count === undefined) await this.seed(tenantId, kind, countExisting);
        else if (count >= cap) throw capReached(kind, cap);
        // else: an item was deleted since; the next round takes its slot.
      }
    }
    throw capReached(kind, cap);
  }

  /**
   * Applies `writes` (the item's deletion, conditional on its existence) with the counter lowered,
   * in one transaction. False when the item was gone (its deletion's condition failed).
   */
  async remove(tenantId: string, kind: CappedKind, writes: TransactItem[], countExisting: CountExisting): Promise<boolean> {
    for (let round = 0; round < ROUNDS; round++) {
      try {
        await transactWrite([lower(tenantId, kind), ...writes]);
        return true;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (!codes || !isConditionFailure(error)) throw error;
        if (codes[0] !== 'ConditionalCheckFailed') return false;
        // No counter and nothing to count: the item cannot exist, and a 404 writes nothing.
        if (!(await this.seed(tenantId, kind, countExisting, true))) return false;
      }
    }
    throw new Error(`The ${kind} counter of tenant ${tenantId} could not be seeded.`);
  }

  /**
   * Puts the counter from a count of the existing items, unless another request put it first.
   * False when `onlyIfAny` and there is nothing to count (the counter stays missing).
   */
  private async seed(tenantId: string, kind: CappedKind, countExisting: CountExisting, onlyIfAny = false): Promise<boolean> {
    const count = await countExisting();
    if (onlyIfAny && count === 0) return false;
    try {
      await this.client.send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...keys.tenantCount(tenantId, kind), entity: 'tenant_count', tenant_id: tenantId, kind, count, seeded_at: systemClock.now().toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    return true;
  }
}

export const tenantCountRepository = new DynamoTenantCountRepository();
