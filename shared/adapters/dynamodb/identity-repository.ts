import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { isConditionFailure, isTransactionConflict, stripKeys } from '#shared/adapters/dynamodb/transactions';
import type { IdentityRef, MemberRecord } from '#shared/domain/member';

/** An identity of the issuer bound to a membership. */
export interface IdentityBinding extends IdentityRef {
  tenant_id: string;
  user_id: string;
}

/** People's identities at the OpenID issuer, each bound to one membership at its first sign-in. */
export class DynamoIdentityRepository {
  private get client() {
    return documentClient();
  }

  async find(issuer: string, sub: string): Promise<IdentityBinding | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.identity(issuer, sub) }));
    return Item ? stripKeys<IdentityBinding>(Item) : undefined;
  }

  /**
   * Binds `identity` to `member` and marks it active, in one transaction: the identity must be
   * unbound and the member still the one read (same email, same binding). The member's earlier
   * identity, if any (the person recreated at the issuer, or the local issuer's port changed), is
   * unbound in the same transaction. False when a condition failed (a concurrent first request
   * bound it, or the member changed); the caller reads again.
   */
  async bind(member: MemberRecord, identity: IdentityRef, profile: { name?: string }, now: string): Promise<boolean> {
    const binding: IdentityBinding = { ...identity, tenant_id: member.tenant_id, user_id: member.user_id };
    const previous = member.identity;
    const update = {
      TableName: tableName(),
      Key: keys.member(member.tenant_id, member.user_id),
      UpdateExpression: `SET #status = :active, joined_at = if_not_exists(joined_at, :now), #identity = :identity${profile.name ? ', #name = :name' : ''}`,
      ConditionExpression: previous ? 'email = :email AND #identity.issuer = :previousIssuer AND #identity.#sub = :previousSub' : 'email = :email AND attribute_not_exists(#identity)',
      ExpressionAttributeNames: { '#status': 'status', '#identity': 'identity', ...(previous ? { '#sub': 'sub' } : {}), ...(profile.name ? { '#name': 'name' } : {}) },
      ExpressionAttributeValues: { ':active': 'active', ':now': now, ':identity': identity, ':email': member.email, ...(previous ? { ':previousIssuer': previous.issuer, ':previousSub': previous.sub } : {}), ...(profile.name ? { ':name': profile.name } : {}) },
    };
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: { ...keys.identity(identity.issuer, identity.sub), entity: 'identity', ...binding }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Update: update },
            ...(previous ? [{ Delete: { TableName: tableName(), Key: keys.identity(previous.issuer, previous.sub), ConditionExpression: 'user_id = :user', ExpressionAttributeValues: { ':user': member.user_id } } }] : []),
          ],
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error) || isTransactionConflict(error)) return false;
      throw error;
    }
  }
}

export const identityRepository = new DynamoIdentityRepository();
