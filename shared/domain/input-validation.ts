import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '#shared/agents/agent';
import type { FieldError } from '#shared/domain/errors';

// Both packages are CommonJS with a default export; under ESM the class sits on `.default`.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** Validates task input against a manifest's JSON Schema; returns the violations, empty when valid. */
export function validateAgainstSchema(schema: JsonSchema, value: unknown): FieldError[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: `input${error.instancePath.replace(/\//g, '.')}`,
    message: error.keyword === 'additionalProperties' ? `unknown property '${(error.params as { additionalProperty: string }).additionalProperty}'` : (error.message ?? 'is invalid'),
  }));
}

/**
 * Why a JSON Schema cannot validate anything (it does not compile under draft 2020-12), or
 * undefined when it can: a custom agent's manifest is refused with this message at deploy time.
 */
export function schemaProblem(schema: JsonSchema): string | undefined {
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
