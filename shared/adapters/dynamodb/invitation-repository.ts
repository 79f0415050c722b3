import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { eventPut } from '#shared/adapters/dynamodb/event-item';
import { keys } from '#shared/adapters/dynamodb/keys';
import { queryAll } from '#shared/adapters/dynamodb/paged-query';
import { cancellationCodes, isConditionFailure, isTransactionConflict, stripKeys } from '#shared/adapters/dynamodb/transactions';
import { ConflictError } from '#shared/domain/errors';
import type { ServiceEvent } from '#shared/domain/event';
import type { InvitationRecord } from '#shared/domain/invitation';
import type { MemberRecord } from '#shared/domain/member';

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const changed = () => new ConflictError('member_changed_concurrently', 'The invitation changed while this request was applied. Read it again and retry.');

/**
 * Invitations (shared/domain/invitation.ts): the invited member in its tenant's partition and the
 * invitation under the email, written, accepted and withdrawn together, each with its event.
 */
export class DynamoInvitationRepository {
  private get client() {
    return documentClient();
  }

  /**
   * Stores an invited member and its invitation with `event`. 409 `member_exists` when this tenant
   * invited the email already. Whether the email is a member elsewhere is not looked at.
   */
  async invite(member: MemberRecord, event: ServiceEvent): Promise<void> {
    const invitation: InvitationRecord = { email: member.email, tenant_id: member.tenant_id, user_id: member.user_id, invited_at: member.created_at };
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName(), Item: { ...keys.invitation(member.email, member.tenant_id), entity: 'invitation', ...invitation }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: tableName(), Item: { ...keys.member(member.tenant_id, member.user_id), entity: 'member', ...member }, ConditionExpression: 'attribute_not_exists(pk)' } },
            await eventPut(event),
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError('member_exists', `'${member.email}' is already invited to this tenant.`);
      throw error;
    }
  }

  /** The email's pending invitations, oldest tenant id first. */
  async listFor(email: string): Promise<InvitationRecord[]> {
    return queryAll<InvitationRecord>({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.invitationsOf(email) }, ConsistentRead: true });
  }

  async find(email: string, tenantId: string): Promise<InvitationRecord | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: tableName(), Key: keys.invitation(email, tenantId), ConsistentRead: true }));
    return Item ? stripKeys<InvitationRecord>(Item) : undefined;
  }

  /**
   * The person accepts: the email's claim is written (one tenant per person), the member becomes
   * `active` and the invitation goes, with `event`, in one transaction. The person's identity is
   * bound to the membership at their next request, by the claim (services/members.ts). 409
   * `already_member` when the email is a member of a tenant already.
   */
  async accept(invitation: InvitationRecord, now: string, event: ServiceEvent): Promise<void> {
    const claim = { ...keys.emailClaim(invitation.email), entity: 'email_claim', email: invitation.email, tenant_id: invitation.tenant_id, user_id: invitation.user_id };
    const items: TransactItem[] = [
      { Put: { TableName: tableName(), Item: claim, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.member(invitation.tenant_id, invitation.user_id),
          UpdateExpression: 'SET #status = :active, joined_at = :now',
          ConditionExpression: '#status = :invited AND email = :email',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active', ':invited': 'invited', ':now': now, ':email': invitation.email },
        },
      },
      this.invitationDelete(invitation),
      await eventPut(event),
    ];
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new ConflictError('already_member', 'You are a member of a tenant already: a person belongs to one tenant. Ask its admin to remove you first.');
      if (isConditionFailure(error) || isTransactionConflict(error)) throw changed();
      throw error;
    }
  }

  /** Withdraws an invitation (declined by its person, or the member removed by an admin): the invited member and the invitation go, with `event`. */
  async withdraw(invitation: InvitationRecord, event: ServiceEvent): Promise<void> {
    const items: TransactItem[] = [
      this.invitationDelete(invitation),
      {
        Delete: {
          TableName: tableName(),
          Key: keys.member(invitation.tenant_id, invitation.user_id),
          ConditionExpression: '#status = :invited',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':invited': 'invited' },
        },
      },
      await eventPut(event),
    ];
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (isConditionFailure(error) || isTransactionConflict(error)) throw changed();
      throw error;
    }
  }

  private invitationDelete(invitation: InvitationRecord): TransactItem {
    return { Delete: { TableName: tableName(), Key: keys.invitation(invitation.email, invitation.tenant_id), ConditionExpression: 'user_id = :user', ExpressionAttributeValues: { ':user': invitation.user_id } } };
  }
}

export const invitationRepository = new DynamoInvitationRepository();
