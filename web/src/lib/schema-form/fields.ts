/**
 * A task type's input JSON Schema as form fields. Covers what agents' schemas use: strings (enum,
 * pattern, lengths, formats), numbers and integers, booleans, arrays of strings, nested objects;
 * anything else (arrays of objects, oneOf) is a JSON text field checked against its type.
 */
export type JsonSchema = Record<string, unknown>;

interface FieldBase {
  /** Dotted path from the input's root: `product.name`; also the key of its value and errors. */
  path: string;
  label: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export type Field =
  | (FieldBase & { kind: 'string'; options?: string[] })
  | (FieldBase & { kind: 'number' | 'integer' })
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'string-list'; options?: string[] })
  | (FieldBase & { kind: 'object'; fields: Field[] })
  | (FieldBase & { kind: 'json'; expects: 'array' | 'object' | 'any' });

/** `focus_framework` → "Focus framework". */
export function labelOf(name: string, schema: JsonSchema): string {
  if (typeof schema.title === 'string') return schema.title;
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function typeOf(schema: JsonSchema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') as string | undefined;
  if (Array.isArray(schema.enum)) return 'string';
  return undefined;
}

function stringOptions(schema: JsonSchema): string[] | undefined {
  return Array.isArray(schema.enum) && schema.enum.every((item) => typeof item === 'string') ? (schema.enum as string[]) : undefined;
}

function fieldOf(name: string, path: string, schema: JsonSchema, required: boolean): Field {
  const base = { path, label: labelOf(name, schema), required, description: typeof schema.description === 'string' ? schema.description : undefined, schema };
  const type = typeOf(schema);
  if (type === 'string') return { ...base, kind: 'string', options: stringOptions(schema) };
  if (type === 'number' || type === 'integer') return { ...base, kind: type };
  if (type === 'boolean') return { ...base, kind: 'boolean' };
  if (type === 'array') {
    const items = (schema.items ?? {}) as JsonSchema;
    if (typeOf(items) === 'string' && !items.oneOf && !items.anyOf) return { ...base, kind: 'string-list', options: stringOptions(items) };
    return { ...base, kind: 'json', expects: 'array' };
  }
  if (type === 'object' && schema.properties && !schema.oneOf && !schema.anyOf) return { ...base, kind: 'object', fields: fieldsOf(schema, path) };
  return { ...base, kind: 'json', expects: type === 'object' || schema.oneOf || schema.anyOf ? 'object' : 'any' };
}

/** The fields of an object schema, in the schema's order; `prefix` is the object's own path. */
export function fieldsOf(schema: JsonSchema, prefix = ''): Field[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => fieldOf(name, prefix ? `${prefix}.${name}` : name, property, required.has(name)));
}
