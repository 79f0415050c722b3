import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { decodeCursor, encodeCursor } from '#shared/adapters/dynamodb/cursor';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { keyBindingJobRepository } from '#shared/adapters/dynamodb/key-binding-job-repository';
import { keys } from '#shared/adapters/dynamodb/keys';
import { queryAll, queryPage } from '#shared/adapters/dynamodb/paged-query';
import { isConditionFailure, isTransactionConflict, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { ServiceEvent } from '#shared/domain/event';
import type { KeyBindingJob } from '#shared/domain/key-binding';
import { ConflictError } from '#shared/domain/errors';
import type { MemberRecord } from '#shared/domain/member';
import type { MemberRole } from '#shared/domain/roles';

/** Which tenant and member an email belongs to. */
export interface EmailClaim {
  email: string;
  tenant_id: string;
  user_id: string;
}

/** The conflict of a change whose conditions no longer held: the service reads again and retries. */
export const MEMBER_CHANGED = 'member_changed_concurrently';

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const memberKey = (record: Pick<MemberRecord, 'tenant_id' | 'user_id'>) => keys.member(record.tenant_id, record.user_id);

/** The condition item that keeps another admin an admin while a change that needs one commits. */
function otherAdminCheck(otherAdmin: MemberRecord | undefined): TransactItem[] {
  if (!otherAdmin) return [];
  return [{ ConditionCheck: { TableName: tableName(), Key: memberKey(otherAdmin), ConditionExpression: '#role = :admin', ExpressionAttributeNames: { '#role': 'role' }, ExpressionAttributeValues: { ':admin': 'admin' } } }];
}

/** The transaction item of a key-binding job, when the change has one. */
const keyJobPut = (job: KeyBindingJob | undefined): TransactItem[] => (job ? [keyBindingJobRepository.jobPut(job)] : []);

/**
 * Members of a tenant, each with its email's claim (one membership per email across tenants) and,
 * once its person signed in, its identity binding. Every change is one transaction with its event.
 */
export class DynamoMemberRepository {
  private get client() {
    return documentClient();
  }

  /** Stores a new member and its email's claim; 409 `member_exists` when the email is a member anywhere. */
  async create(record: MemberRecord, event?: ServiceEvent): Promise<void> {
    const items: TransactItem[] = [
      { Put: { TableName: tableName(), Item: { ...keys.emailClaim(record.email), entity: 'email_claim', email: record.email, tenant_id: record.tenant_id, user_id: record.user_id }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...memberKey(record), entity: 'member', ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    if (event) items.push(await eventPut(event));
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError('member_exists', `'${record.email}' is already a member (a person is a member of one tenant only).`);
      throw error;
    }
  }

  async get(tenantId: string, userId: string): Promise<MemberRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.member(tenantId, userId), ConsistentRead: true }));
    return Item ? stripKeys<MemberRecord>(Item) : undefined;
  }

  async findEmailClaim(email: string): Promise<EmailClaim | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.emailClaim(email), ConsistentRead: true }));
    return Item ? stripKeys<EmailClaim>(Item) : undefined;
  }

  /** One page of a tenant's members, oldest first. */
  async listPage(tenantId: string, query: { limit: number; cursor?: string }): Promise<{ members: MemberRecord[]; nextCursor: string | null }> {
    const partition = keys.membersPartition(tenantId);
    const scope = `members|${tenantId}`;
    const startKey = await decodeCursor(tenantId, scope, query.cursor, { partitionAttribute: 'pk', partition });
    const { items, lastKey } = await queryPage<MemberRecord>(
      { TableName: tableName(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :member)', ExpressionAttributeValues: { ':pk': partition, ':member': 'MEMBER#' } },
      query.limit,
      startKey,
    );
    return { members: items, nextCursor: await encodeCursor(tenantId, scope, lastKey) };
  }

  /** Every member of a tenant (a tenant's people: a small partition). */
  async listAll(tenantId: string): Promise<MemberRecord[]> {
    return queryAll<MemberRecord>({ TableName: tableName(), KeyConditionExpression: 'pk = :pk AND begins_with(sk, :member)', ExpressionAttributeValues: { ':pk': keys.membersPartition(tenantId), ':member': 'MEMBER#' }, ConsistentRead: true });
  }

  /**
   * Gives `record` the role `role`, if its role is still the one read, with `otherAdmin` still an
   * admin (when an admin is demoted), `event` and the `keyJob` that caps the person's keys (a
   * demotion), in one transaction. A condition that no longer holds is ConflictError
   * `member_changed_concurrently`, for the service to read again.
   */
  async changeRole(record: MemberRecord, role: MemberRole, otherAdmin: MemberRecord | undefined, event: ServiceEvent | undefined, keyJob?: KeyBindingJob): Promise<MemberRecord> {
    const update = {
      TableName: tableName(),
      Key: memberKey(record),
      UpdateExpression: 'SET #role = :role',
      ConditionExpression: '#role = :previous',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':role': role, ':previous': record.role },
    };
    await this.transact([{ Update: update }, ...otherAdminCheck(otherAdmin), ...(event ? [await eventPut(event)] : []), ...keyJobPut(keyJob)]);
    return { ...record, role };
  }

  /**
   * Deletes a member, its email's claim and its identity binding (so its tokens stop working), with
   * `otherAdmin` still an admin (when an admin is removed), `event` and the `keyJob` that revokes
   * the person's keys, in one transaction.
   */
  async remove(record: MemberRecord, otherAdmin: MemberRecord | undefined, event: ServiceEvent | undefined, keyJob?: KeyBindingJob): Promise<void> {
    const ownedBy = { ConditionExpression: 'user_id = :user', ExpressionAttributeValues: { ':user': record.user_id } };
    const items: TransactItem[] = [
      { Delete: { TableName: tableName(), Key: memberKey(record), ConditionExpression: '#role = :role', ExpressionAttributeNames: { '#role': 'role' }, ExpressionAttributeValues: { ':role': record.role } } },
      { Delete: { TableName: tableName(), Key: keys.emailClaim(record.email), ...ownedBy } },
      ...(record.identity ? [{ Delete: { TableName: tableName(), Key: keys.identity(record.identity.issuer, record.identity.sub), ...ownedBy } }] : []),
      ...otherAdminCheck(otherAdmin),
      ...(event ? [await eventPut(event)] : []),
      ...keyJobPut(keyJob),
    ];
    await this.transact(items);
  }

  /** Sets the role of a member the local runtime manages (GATEHOUSE_USERS), without an event. */
  async setRole(record: MemberRecord, role: MemberRole): Promise<void> {
    await this.client.send(new UpdateCommand({ TableName: tableName(), Key: memberKey(record), UpdateExpression: 'SET #role = :role', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeNames: { '#role': 'role' }, ExpressionAttributeValues: { ':role': role } }));
  }

  private async transact(items: TransactItem[]): Promise<void> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error) || isTransactionConflict(error)) throw new ConflictError('member_changed_concurrently', 'The tenant\'s members changed while this request was applied. Read them again and retry.');
      throw error;
    }
  }
}

export const memberRepository = new DynamoMemberRepository();
