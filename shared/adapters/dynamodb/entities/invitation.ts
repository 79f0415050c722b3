import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * A pending invitation of an email to a tenant, beside the invited member's record (status
 * `invited`) in the tenant's partition. Keyed by email, so the invited person finds theirs before
 * they belong to any tenant. Inviting claims nothing: the email's claim (one tenant per person)
 * is written when the person accepts.
 */
export const invitationEntity = defineEntity({
  entity: 'invitation',
  tenantScoped: false,
  keys: {
    invitation: (email: string, tenantId: string): Key => ({ pk: `INVITATION#${email}`, sk: `TENANT#${tenantId}` }),
    invitationsOf: (email: string) => `INVITATION#${email}`,
  },
  primaryKey: 'invitation',
  indexes: [],
});
