import { describe, expect, it } from 'vitest';
import { indexWriteUnits, itemSize, transactionWriteUnits, updatedAttributesOf, valueSize } from '../../../bench/capacity';

describe('DynamoDB item sizes and transaction pricing', () => {
  it('sizes attributes by name and value bytes', () => {
    expect(valueSize({ S: 'héllo' })).toBe(6);
    expect(valueSize({ N: '12345' })).toBe(4);
    expect(valueSize({ BOOL: true })).toBe(1);
    expect(valueSize({ L: [{ S: 'ab' }, { NULL: true }] })).toBe(3 + 1 + 2 + 1 + 1);
    expect(valueSize({ M: { a: { S: 'xy' } } })).toBe(3 + 1 + 1 + 2);
    expect(itemSize({ pk: { S: 'abc' }, n: { N: '7' } })).toBe(2 + 3 + 1 + 2);
  });

  it('charges two units per KB of each item, and a standard write per KB of each index entry it changes', () => {
    const small = { pk: { S: 'a' }, sk: { S: 'b' } };
    const indexed = { ...small, gsi1pk: { S: 'x' }, gsi1sk: { S: 'y' } };
    const large = { ...small, body: { S: 'x'.repeat(2500) } };

    expect(transactionWriteUnits([{ kind: 'Put', item: small }])).toBe(2);
    // gsi1 copies the whole item: one standard unit for its copy.
    expect(transactionWriteUnits([{ kind: 'Put', item: indexed }])).toBe(3);
    expect(transactionWriteUnits([{ kind: 'Put', item: large }, { kind: 'Put', item: small }])).toBe(6 + 2);
    // An update that adds an index key writes to that index; a condition check never does.
    expect(transactionWriteUnits([{ kind: 'Update', item: small, updatedAttributes: ['gsi1pk', 'gsi1sk'] }])).toBe(3);
    expect(transactionWriteUnits([{ kind: 'ConditionCheck', item: indexed }])).toBe(2);
    // An upsert of an item that did not exist is sized by the values it writes.
    expect(transactionWriteUnits([{ kind: 'Update', item: undefined, updateValueBytes: 1500 }])).toBe(4);
  });

  it('writes an index only when an update changes its keys or an attribute it projects', () => {
    const task = { pk: { S: 'p' }, sk: { S: 's' }, gsi2pk: { S: 'a' }, gsi2sk: { S: 'b' }, status: { S: 'running' }, step: { N: '3' }, input: { S: 'x'.repeat(1500) } };
    // gsi2 projects keys and status only.
    expect(indexWriteUnits({ kind: 'Update', item: task, updatedAttributes: ['step', 'updated_at'] })).toBe(0);
    expect(indexWriteUnits({ kind: 'Update', item: task, updatedAttributes: ['status'] })).toBe(1);
    // Its entry is small whatever the item's size; the put that creates the item writes it once.
    expect(indexWriteUnits({ kind: 'Put', item: task })).toBe(1);
    // Removing an index key deletes the entry; changing one deletes and puts it.
    const active = { ...task, gsi3pk: { S: 'ACTIVE#0' }, gsi3sk: { S: 't' } };
    expect(indexWriteUnits({ kind: 'Update', item: active, updatedAttributes: ['status', 'gsi3pk', 'gsi3sk'], removedAttributes: ['gsi3pk', 'gsi3sk'] })).toBe(1 + 1);
    expect(indexWriteUnits({ kind: 'Update', item: active, updatedAttributes: ['gsi3pk'] })).toBe(2);
  });

  it('finds the attributes an update expression changes', () => {
    expect(updatedAttributesOf('SET step = :step, updated_at = :now, artifacts.#id = :summary REMOVE gsi3pk, gsi3sk', { '#id': 'art_1' })).toEqual(['step', 'updated_at', 'artifacts', 'gsi3pk', 'gsi3sk']);
    expect(updatedAttributesOf('SET #status = if_not_exists(#status, :a), tokens = list_append(tokens, :t) ADD hits :one', { '#status': 'status' })).toEqual(['status', 'tokens', 'hits']);
  });
});
