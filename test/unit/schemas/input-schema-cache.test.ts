import { describe, expect, it } from 'vitest';
import { compiledSchemaCount, externalReferences, MAX_COMPILED_SCHEMAS, schemaProblem, validateAgainstSchema } from '#shared/domain/input-validation';
import { LruMap } from '#shared/domain/lru-map';

// The schemas: tenant A's with an `$id`, and tenant B's that names it.
const acmeSchema = () => ({ $id: 'urn:acme:x', type: 'object', required: ['acme_merger_target'], properties: { acme_merger_target: { type: 'string' } } });
const probeSchema = () => ({ $ref: 'urn:acme:x' });

describe('the LRU map that bounds compiled schemas', () => {
  it('forgets the least recently used entry beyond its bound', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1).set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recently used
    lru.set('c', 3);
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).toEqual([true, false, true]);
    expect(lru.size).toBe(2);
  });

  it('makes a missing value once, and stores nothing when making it throws', () => {
    const lru = new LruMap<string, number>(2);
    let made = 0;
    expect(lru.getOrSet('a', () => ++made)).toBe(1);
    expect(lru.getOrSet('a', () => ++made)).toBe(1);
    expect(() => lru.getOrSet('b', () => { throw new Error('no'); })).toThrow('no');
    expect(lru.has('b')).toBe(false);
  });
});

describe('custom agents\' input schemas', () => {
  it('compile once per content: a task creation reading the manifest again compiles nothing', () => {
    validateAgainstSchema(acmeSchema(), { acme_merger_target: 'x' }, 'ten_once');
    const count = compiledSchemaCount();
    for (let task = 0; task < 20; task++) expect(validateAgainstSchema(acmeSchema(), { acme_merger_target: 'x' }, 'ten_once')).toEqual([]);
    expect(compiledSchemaCount()).toBe(count);
  });

  it('with an $id validate every task again, not only the first (the issue\'s 500 after the first)', () => {
    for (let task = 0; task < 3; task++) {
      expect(validateAgainstSchema(acmeSchema(), {}, 'ten_acme')).toEqual([{ path: 'input', message: "must have required property 'acme_merger_target'" }]);
    }
  });

  it('with the same $id compile for two tenants, and for one tenant twice with other content', () => {
    expect(schemaProblem(acmeSchema(), 'ten_acme')).toBeUndefined();
    expect(schemaProblem(acmeSchema(), 'ten_other')).toBeUndefined();
    expect(schemaProblem({ ...acmeSchema(), description: 'version 2' }, 'ten_acme')).toBeUndefined();
  });

  it('cannot reach another tenant\'s schema by its $id, and refusing says nothing about whether it exists', () => {
    expect(schemaProblem(acmeSchema(), 'ten_acme')).toBeUndefined();
    const named = schemaProblem(probeSchema(), 'ten_probe');
    const unknown = schemaProblem({ $ref: 'urn:nobody:y' }, 'ten_probe');
    expect(named).toBe("/$ref must point inside the schema (a '#' reference such as '#/$defs/name'), not 'urn:acme:x'");
    expect(unknown).toBe(named!.replace('urn:acme:x', 'urn:nobody:y'));
    // Even a schema stored before the rule never resolves it: it cannot check the input, and says so.
    const violations = validateAgainstSchema(probeSchema(), {}, 'ten_probe');
    expect(violations).toHaveLength(1);
    expect(violations[0].message).toContain('cannot be checked');
    expect(violations[0].message).not.toContain('acme_merger_target');
  });

  it('may refer inside themselves, and a $ref in data is data', () => {
    const schema = { type: 'object', $defs: { code: { type: 'string', pattern: '^[A-Z]{3}$' } }, properties: { currency: { $ref: '#/$defs/code' }, note: { const: { $ref: 'http://example.com' } } } };
    expect(externalReferences(schema)).toEqual([]);
    expect(validateAgainstSchema(schema, { currency: 'eur' }, 'ten_inner')).toEqual([{ path: 'input.currency', message: 'must match pattern "^[A-Z]{3}$"' }]);
    expect(externalReferences({ items: [{ $dynamicRef: 'https://example.com/s' }] })).toEqual([{ path: '/items/0/$dynamicRef', ref: 'https://example.com/s' }]);
  });

  it.each([
    [{ type: 'string', pattern: '(a)\\1' }, 'pattern "(a)\\1" cannot run in linear time'],
    [{ type: 'object', patternProperties: { '^(?=x)': {} } }, 'pattern "^(?=x)" cannot run in linear time'],
    [{ type: 'string', pattern: 'a'.repeat(1_001) }, 'is longer than 1000 characters'],
    [{ type: 'strin' }, 'schema is invalid'],
  ])('are refused when a pattern or keyword cannot be used: %j', (schema, reason) => {
    expect(schemaProblem(schema, 'ten_patterns')).toContain(reason);
  });

  it('run their patterns on the linear-time engine: ^(a|a)*$ on 50,000 characters answers', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(a|a)*$' } } };
    expect(validateAgainstSchema(schema, { name: `${'a'.repeat(50_000)}b` }, 'ten_redos')).toEqual([{ path: 'input.name', message: 'must match pattern "^(a|a)*$"' }]);
    expect(validateAgainstSchema(schema, { name: 'aaaa' }, 'ten_redos')).toEqual([]);
  });

  it(`are kept at most ${MAX_COMPILED_SCHEMAS} at once, and an evicted one compiles again`, () => {
    const schema = (index: number) => ({ type: 'object', required: [`field_${index}`] });
    for (let index = 0; index < MAX_COMPILED_SCHEMAS + 50; index++) validateAgainstSchema(schema(index), {}, 'ten_many');
    expect(compiledSchemaCount()).toBe(MAX_COMPILED_SCHEMAS);
    // The first was evicted; the $id schema of the same tenant compiles in a fresh instance, again and again.
    expect(validateAgainstSchema(schema(0), {}, 'ten_many')).toEqual([{ path: 'input', message: "must have required property 'field_0'" }]);
    for (let round = 0; round < MAX_COMPILED_SCHEMAS + 1; round++) validateAgainstSchema({ type: 'object', title: `filler ${round}` }, {}, 'ten_fill');
    expect(validateAgainstSchema(acmeSchema(), {}, 'ten_acme')).toHaveLength(1);
  });
});
