import { GLOBAL_SECONDARY_INDEXES } from '#shared/adapters/dynamodb/table-definition';

/** An attribute value as DynamoDB's wire protocol writes it (`{ "S": "…" }`, `{ "M": { … } }`). */
export type WireValue = Record<string, unknown>;
export type WireItem = Record<string, WireValue>;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * Size of one attribute value by DynamoDB's item-size rules: strings and binaries by their bytes,
 * numbers by about one byte per two significant digits plus one, booleans and nulls one byte,
 * lists and maps three bytes plus one per element plus their contents (and a map's key names).
 */
export function valueSize(value: WireValue): number {
  if (typeof value.S === 'string') return utf8(value.S);
  if (typeof value.N === 'string') return Math.ceil(value.N.replace(/^-|\.|e.*$/gi, '').replace(/^0+/, '').length / 2) + 1;
  if (typeof value.B === 'string') return Buffer.from(value.B, 'base64').length;
  if ('BOOL' in value || 'NULL' in value) return 1;
  if (Array.isArray(value.SS)) return (value.SS as string[]).reduce((sum, entry) => sum + utf8(entry), 0);
  if (Array.isArray(value.NS)) return (value.NS as string[]).reduce((sum, entry) => sum + valueSize({ N: entry }), 0);
  if (Array.isArray(value.BS)) return (value.BS as string[]).reduce((sum, entry) => sum + Buffer.from(entry, 'base64').length, 0);
  if (Array.isArray(value.L)) return 3 + (value.L as WireValue[]).reduce((sum, entry) => sum + 1 + valueSize(entry), 0);
  if (value.M && typeof value.M === 'object') return 3 + Object.entries(value.M as WireItem).reduce((sum, [name, entry]) => sum + 1 + utf8(name) + valueSize(entry), 0);
  return 0;
}

export function itemSize(item: WireItem): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** Indexes the item is written to: the sparse GSIs whose partition and sort key it carries. */
export function indexesOf(item: WireItem, updatedAttributes: readonly string[] = []): number {
  const has = (name: string) => name in item || updatedAttributes.includes(name);
  return GLOBAL_SECONDARY_INDEXES.filter((index) => has(index.partitionKey) && has(index.sortKey)).length;
}

/** One action of a TransactWriteItems request, with what the metering knows of its item. */
export interface TransactionAction {
  kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  /** The item written (Put) or, for the others, as it was read just before the transaction. */
  item: WireItem | undefined;
  /** Attribute names an Update sets (from its expression's names), so index keys it adds count. */
  updatedAttributes?: string[];
  /** Bytes of the values an Update writes, for an upsert of an item that did not exist. */
  updateValueBytes?: number;
}

/**
 * Write request units of a TransactWriteItems request on AWS: two per KB of each item (rounded up
 * per item), again for each index the item is written to. DynamoDB Local reports a different
 * figure for transactions (about four units per transaction whatever it holds), so the
 * benchmark prices transactions with this instead. A ConditionCheck is charged like a write of
 * its item without indexes (the conservative reading of the pricing page).
 */
export function transactionWriteUnits(actions: readonly TransactionAction[]): number {
  let units = 0;
  for (const action of actions) {
    const size = Math.max(action.item ? itemSize(action.item) : 0, action.updateValueBytes ?? 0, 1);
    const perCopy = 2 * Math.ceil(size / 1024);
    const indexes = action.kind === 'ConditionCheck' ? 0 : indexesOf(action.item ?? {}, action.updatedAttributes);
    units += perCopy * (1 + indexes);
  }
  return units;
}
