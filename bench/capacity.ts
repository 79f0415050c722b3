import { GLOBAL_SECONDARY_INDEXES, type IndexDefinition } from '#shared/adapters/dynamodb/table-definition';

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

/** Attribute names at the top level of the paths an UpdateExpression sets, removes, adds or deletes. */
export function updatedAttributesOf(expression: string, names: Record<string, string> = {}): string[] {
  const attributes = new Set<string>();
  const clauses = expression.split(/\b(SET|REMOVE|ADD|DELETE)\b/i).slice(1);
  for (let index = 0; index < clauses.length; index += 2) {
    const verb = clauses[index].toUpperCase();
    let depth = 0;
    let current = '';
    const actions: string[] = [];
    for (const char of clauses[index + 1]) {
      if (char === '(') depth++;
      if (char === ')') depth--;
      if (char === ',' && depth === 0) {
        actions.push(current);
        current = '';
      } else current += char;
    }
    actions.push(current);
    for (const action of actions) {
      const path = (verb === 'SET' ? action.split('=')[0] : action.trim().split(/\s+/)[0]).trim();
      const top = path.split(/[.[]/)[0];
      if (top) attributes.add(names[top] ?? top);
    }
  }
  return [...attributes];
}

const TABLE_KEY_NAMES = ['pk', 'sk'];

/** Bytes of the index's copy of the item: the table's keys, the index's keys and the attributes it projects. */
function indexEntrySize(index: IndexDefinition, item: WireItem): number {
  if (index.projection === 'ALL') return itemSize(item);
  const kept = new Set([...TABLE_KEY_NAMES, index.partitionKey, index.sortKey, ...index.projection]);
  return itemSize(Object.fromEntries(Object.entries(item).filter(([name]) => kept.has(name))));
}

/**
 * Write units the indexes of the table take for one write. Index copies are written after the
 * write commits, as standard writes (one unit per KB of the index entry), also when the write
 * was part of a transaction: DynamoDB propagates a transaction's changes to its global secondary
 * indexes once it completed (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html).
 * An update that changes neither an index's keys nor an attribute the index projects does not
 * write to it; one that adds the item to an index is a put there, one that removes the item a
 * delete, one that changes a key of an indexed item a delete and a put
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html, "Provisioned
 * throughput considerations for Global Secondary Indexes").
 */
export function indexWriteUnits(action: TransactionAction): number {
  if (action.kind === 'ConditionCheck') return 0;
  const before = action.kind === 'Put' ? {} : (action.item ?? {});
  const after = action.kind === 'Put' ? (action.item ?? {}) : action.kind === 'Delete' ? {} : before;
  const updated = action.kind === 'Update' ? (action.updatedAttributes ?? []) : [];
  const removed = action.kind === 'Update' ? (action.removedAttributes ?? []) : [];
  const perKb = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
  let units = 0;
  for (const index of GLOBAL_SECONDARY_INDEXES) {
    const keys = [index.partitionKey, index.sortKey];
    const wasIn = keys.every((name) => name in before);
    if (action.kind !== 'Update') {
      const item = action.kind === 'Put' ? after : before;
      if (keys.every((name) => name in item)) units += perKb(indexEntrySize(index, item));
      continue;
    }
    const keyRemoved = keys.some((name) => removed.includes(name));
    const keySet = keys.some((name) => updated.includes(name) && !removed.includes(name));
    const isIn = !keyRemoved && keys.every((name) => (name in before && !removed.includes(name)) || updated.includes(name));
    const size = Math.max(indexEntrySize(index, before), index.projection === 'ALL' ? (action.updateValueBytes ?? 0) : 0);
    if (wasIn && !isIn) units += perKb(size);
    else if (!wasIn && isIn) units += perKb(size);
    else if (wasIn && isIn) {
      if (keySet) units += 2 * perKb(size);
      else if (index.projection === 'ALL' ? updated.length > 0 : updated.some((name) => index.projection.includes(name))) units += perKb(size);
    }
  }
  return units;
}

/** One action of a TransactWriteItems request, with what the metering knows of its item. */
export interface TransactionAction {
  kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  /** The item written (Put) or, for the others, as it was read just before the transaction. */
  item: WireItem | undefined;
  /** Top-level attributes an Update sets or removes (with its key, for an upsert). */
  updatedAttributes?: string[];
  /** Those of them it removes. */
  removedAttributes?: string[];
  /** Bytes of the values an Update writes, for an upsert of an item that did not exist. */
  updateValueBytes?: number;
}

/**
 * Write request units of a TransactWriteItems request on AWS: two per KB of each item (rounded up
 * per item), plus the standard writes of the indexes it changes (indexWriteUnits). DynamoDB
 * Local reports a different figure for transactions (about four units per transaction whatever
 * it holds), so the benchmark prices transactions with this instead. A ConditionCheck is charged
 * like a write of its item (the conservative reading of the pricing page).
 */
export function transactionWriteUnits(actions: readonly TransactionAction[]): number {
  let units = 0;
  for (const action of actions) {
    const size = Math.max(action.item ? itemSize(action.item) : 0, action.updateValueBytes ?? 0, 1);
    units += 2 * Math.ceil(size / 1024) + indexWriteUnits(action);
  }
  return units;
}
