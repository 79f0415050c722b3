import { describe, expect, it } from 'vitest';
import { itemSize, transactionWriteUnits, valueSize } from '../../../bench/capacity';

describe('DynamoDB item sizes and transaction pricing', () => {
  it('sizes attributes by name and value bytes', () => {
    expect(valueSize({ S: 'héllo' })).toBe(6);
    expect(valueSize({ N: '12345' })).toBe(4);
    expect(valueSize({ BOOL: true })).toBe(1);
    expect(valueSize({ L: [{ S: 'ab' }, { NULL: true }] })).toBe(3 + 1 + 2 + 1 + 1);
    expect(valueSize({ M: { a: { S: 'xy' } } })).toBe(3 + 1 + 1 + 2);
    expect(itemSize({ pk: { S: 'abc' }, n: { N: '7' } })).toBe(2 + 3 + 1 + 2);
  });

  it('charges two units per KB of each item, again for every index it is written to', () => {
    const small = { pk: { S: 'a' }, sk: { S: 'b' } };
    const indexed = { ...small, gsi1pk: { S: 'x' }, gsi1sk: { S: 'y' } };
    const large = { ...small, body: { S: 'x'.repeat(2500) } };

    expect(transactionWriteUnits([{ kind: 'Put', item: small }])).toBe(2);
    expect(transactionWriteUnits([{ kind: 'Put', item: indexed }])).toBe(4);
    expect(transactionWriteUnits([{ kind: 'Put', item: large }, { kind: 'Put', item: small }])).toBe(6 + 2);
    // An update that adds an index key writes to that index; a condition check never does.
    expect(transactionWriteUnits([{ kind: 'Update', item: small, updatedAttributes: ['gsi1pk', 'gsi1sk'] }])).toBe(4);
    expect(transactionWriteUnits([{ kind: 'ConditionCheck', item: indexed }])).toBe(2);
    // An upsert of an item that did not exist is sized by the values it writes.
    expect(transactionWriteUnits([{ kind: 'Update', item: undefined, updateValueBytes: 1500 }])).toBe(4);
  });
});
