import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * Which membership an email holds: one item per email across all tenants, written in the same
 * transaction as the member, so an email is a member of at most one tenant. Not tenant-scoped: a
 * person's first sign-in finds their tenant by the email the issuer vouches for.
 */
export const emailClaimEntity = defineEntity({
  entity: 'email_claim',
  tenantScoped: false,
  keys: {
    emailClaim: (email: string): Key => ({ pk: `MEMBER_EMAIL#${email}`, sk: 'MEMBER_EMAIL' }),
  },
  primaryKey: 'emailClaim',
  indexes: [],
});
