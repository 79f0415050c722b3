import fc from 'fast-check';

/** The JSON Schema subset zod's output uses for requests. */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

const typeOf = (schema: Schema): string | undefined => (Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type);

function stringArb(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 24, minLength + 24);
  // Stretched to the minimum length rather than filtered (a filter can spin for long); a result
  // that no longer matches is merely an invalid request, which the document also declares.
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).map((text) => (text.length >= minLength || !text ? text : text.repeat(Math.ceil(minLength / text.length))).slice(0, schema.maxLength));
  return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1000;
  const max = schema.maximum ?? 1000;
  return integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArb(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = Object.keys(properties).filter((name) => schema.required?.includes(name));
  const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property)])), { requiredKeys: required });
  return record as fc.Arbitrary<Record<string, unknown>>;
}

/** Values the schema accepts (within the subset above). */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(validValue));
  const nullable = Array.isArray(schema.type) && schema.type.includes('null');
  const value = ((): fc.Arbitrary<unknown> => {
    switch (typeOf(schema)) {
      case 'string':
        return stringArb(schema);
      case 'integer':
        return numberArb(schema, true);
      case 'number':
        return numberArb(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(validValue(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3) });
      case 'object':
        return objectArb(schema);
      default:
        return fc.jsonValue({ maxDepth: 1 });
    }
  })();
  return nullable ? fc.oneof(value, fc.constant(null)) : value;
}

/** Values the schema refuses (the wrong type, out of range or length, outside the enum, an unknown field), or undefined when it refuses nothing this can make. */
export function invalidValue(schema: Schema): fc.Arbitrary<unknown> | undefined {
  const type = typeOf(schema);
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) options.push(fc.constant('not-one-of-the-values'));
  if (type === 'string' || schema.enum) options.push(fc.constant(12345), fc.constant({ nested: true }));
  if (type === 'string' && schema.maxLength !== undefined) options.push(fc.constant('x'.repeat(schema.maxLength + 1)));
  if (type === 'string' && schema.minLength) options.push(fc.constant(''));
  if (type === 'integer' || type === 'number') options.push(fc.constant('not-a-number'), fc.constant(true));
  if ((type === 'integer' || type === 'number') && schema.maximum !== undefined) options.push(fc.constant(schema.maximum + 1));
  if ((type === 'integer' || type === 'number') && schema.minimum !== undefined) options.push(fc.constant(schema.minimum - 1));
  if (type === 'boolean') options.push(fc.constant('yes'));
  if (type === 'array') options.push(fc.constant('not-an-array'), fc.constant([{ not: 'an item' }]));
  if (type === 'object') options.push(fc.constant([1, 2]), fc.constant('not-an-object'));
  if (type === 'object' && schema.additionalProperties === false) options.push(validValue(schema).map((value) => ({ ...(value as object), field_nobody_declared: 1 })));
  if (type === 'object' && schema.required?.length) options.push(validValue(schema).map((value) => Object.fromEntries(Object.entries(value as object).filter(([name]) => name !== schema.required?.[0]))));
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

/** The text a query parameter carries for a value (the query is text; the route coerces numbers). */
export const queryText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
