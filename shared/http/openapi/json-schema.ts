import { registry, toJSONSchema } from 'zod/v4/core';
import type * as z from '#shared/zod';

export type JsonSchema = Record<string, unknown>;

// Refinements JSON Schema cannot say (byte sizes, cross-field rules) are left out, never fatal:
// the route still enforces them and answers 400.
const OPTIONS = { target: 'draft-2020-12', unrepresentable: 'any' } as const;

function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** A request part's JSON Schema as the client sends it (defaults optional, query numbers as text coerced). */
export function requestSchema(schema: z.ZodType): JsonSchema {
  return bare(toJSONSchema(schema, { ...OPTIONS, io: 'input' }) as JsonSchema);
}

/** Named response schemas as `components.schemas`, one referencing another by `$ref`. */
export function componentSchemas(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const components = registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) components.add(schema, { id });
  const { schemas } = toJSONSchema(components, { ...OPTIONS, io: 'output', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, bare(schema)]));
}
