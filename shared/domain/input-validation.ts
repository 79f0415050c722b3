import { createHash } from 'node:crypto';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { JsonSchema } from '#shared/agents/agent';
import type { FieldError } from '#shared/domain/errors';
import { LruMap } from '#shared/domain/lru-map';
import { ajvRegExpEngine } from '#shared/domain/operator-regex';

// Both packages are CommonJS with a default export; under ESM the class sits on `.default`.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;

/**
 * Input schemas are compiled once per (scope, content) and kept in a bounded LRU. Each schema gets
 * an Ajv instance of its own, dropped with it on eviction: an `$id` one schema declares is unknown
 * to every other, so nothing resolves, clashes or leaks across tenants or agents, and a schema
 * declaring an `$id` compiles again after eviction. Patterns run on the linear-time engine.
 */
export const MAX_COMPILED_SCHEMAS = 200;

/** Whose schema it is: a tenant's id for custom agents' schemas, `built-in` for the agents we ship. */
export type SchemaScope = string;
export const BUILT_IN_SCOPE: SchemaScope = 'built-in';

/** Schema keywords whose string value is a reference another schema could answer. */
const REFERENCE_KEYWORDS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);
/** Keywords whose value is data, not a schema: a `$ref` inside them is a value like any other. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);


type Compiled = { validate: ValidateFunction } | { error: string };

const validators = new LruMap<string, Compiled>(MAX_COMPILED_SCHEMAS);

// One instance checks schemas against the draft 2020-12 meta-schema (it compiles that once and keeps
// none of the schemas it checks); each compiled schema gets a bare instance without meta-schemas,
// which costs a few milliseconds instead of the 130 a full instance takes.
const metaAjv = new Ajv2020({ allErrors: true, strict: false });

function newAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, meta: false, validateSchema: false, code: { regExp: ajvRegExpEngine } });
  addFormats(ajv);
  return ajv;
}

/** Why `schema` breaks the meta-schema (or names a `$schema` we do not have), or undefined. */
function metaProblem(schema: JsonSchema): string | undefined {
  if (metaAjv.validateSchema(schema)) return undefined;
  return `schema is invalid: ${metaAjv.errorsText(metaAjv.errors)}`;
}

/** Content digests of schema objects seen: the built-ins' schemas are the same objects every time. */
const digests = new WeakMap<JsonSchema, string>();

function cacheKey(scope: SchemaScope, schema: JsonSchema): string {
  let digest = digests.get(schema);
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(schema)).digest('base64url');
    digests.set(schema, digest);
  }
  return `${scope}\u0000${digest}`;
}

/** The references of a schema that point outside it (anything but `#...`), with where they are. */
export function externalReferences(schema: unknown, at = ''): { path: string; ref: string }[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => externalReferences(item, `${at}/${index}`));
  if (schema === null || typeof schema !== 'object') return [];
  return Object.entries(schema as Record<string, unknown>).flatMap(([keyword, value]) => {
    if (REFERENCE_KEYWORDS.has(keyword) && typeof value === 'string') return value.startsWith('#') ? [] : [{ path: `${at}/${keyword}`, ref: value }];
    if (DATA_KEYWORDS.has(keyword)) return [];
    return externalReferences(value, `${at}/${keyword}`);
  });
}

function compile(schema: JsonSchema): Compiled {
  const outside = externalReferences(schema);
  if (outside.length > 0) return { error: `${outside[0].path} must point inside the schema (a '#' reference such as '#/$defs/name'), not '${outside[0].ref}'` };
  try {
    const problem = metaProblem(schema);
    if (problem) return { error: problem };
    return { validate: newAjv().compile(schema) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The compiled schema of `scope`, from the cache when its content was seen; failures are kept too, so a bad schema is not recompiled per task. */
function compiled(scope: SchemaScope, schema: JsonSchema): Compiled {
  return validators.getOrSet(cacheKey(scope, schema), () => compile(schema));
}

/**
 * Validates task input against a manifest's JSON Schema; returns the violations, empty when valid.
 * A schema that does not compile (stored before a rule it breaks existed) is one violation that
 * says so: the task fails `malformed_input`, never the request.
 */
export function validateAgainstSchema(schema: JsonSchema, value: unknown, scope: SchemaScope = BUILT_IN_SCOPE): FieldError[] {
  const result = compiled(scope, schema);
  if ('error' in result) return [{ path: 'input', message: `cannot be checked: the task type's input schema is not usable (${result.error}); redeploy the agent with a schema that is` }];
  const { validate } = result;
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: `input${error.instancePath.replace(/\//g, '.')}`,
    message: error.keyword === 'additionalProperties' ? `unknown property '${(error.params as { additionalProperty: string }).additionalProperty}'` : (error.message ?? 'is invalid'),
  }));
}

/**
 * Why a JSON Schema cannot validate anything (it does not compile under draft 2020-12, refers
 * outside itself, or holds a pattern the linear-time engine refuses), or undefined when it can: a
 * custom agent's manifest is refused with this message at deploy time.
 */
export function schemaProblem(schema: JsonSchema, scope: SchemaScope = BUILT_IN_SCOPE): string | undefined {
  const result = compiled(scope, schema);
  return 'error' in result ? result.error : undefined;
}

/** How many compiled schemas the process holds (the bound is MAX_COMPILED_SCHEMAS). */
export function compiledSchemaCount(): number {
  return validators.size;
}
