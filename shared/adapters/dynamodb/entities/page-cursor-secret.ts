import { defineEntity, type Key } from '#shared/adapters/dynamodb/entities/entity';

/**
 * The deployment's page cursor secret, wrapped by KMS under the table's key (AWS only; locally the
 * secret comes from GATEHOUSE_SECRET_KEY). One item for the whole table, written once.
 */
export const pageCursorSecretEntity = defineEntity({
  entity: 'page_cursor_secret',
  tenantScoped: false,
  keys: {
    pageCursorSecret: (): Key => ({ pk: 'PAGECURSOR', sk: 'SECRET#1' }),
  },
  primaryKey: 'pageCursorSecret',
  indexes: [],
});
