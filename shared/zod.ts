import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The parts of zod Gatehouse uses, from `zod/mini`, as named exports; import it as a namespace
 * (`import * as z from '#shared/zod'`) to keep the `z.` spelling. Classic zod gives every schema
 * instance all its methods, a large module that every API function parsed and ran at cold start;
 * the mini API builds the same schemas from functions (`z.optional(x)`, `.check(z.maxLength(64))`)
 * at a fraction of that (figures: docs/benchmarks.md). Never `import { z } from 'zod'`: that
 * namespace object drags every locale in.
 *
 * Mini loads no locale by itself; English, which classic zod uses, keeps the messages clients see
 * in 400 answers word for word as they were. Add a name below when a schema needs another builder.
 */
config(en());

export {
  _default,
  array,
  boolean,
  catchall,
  coerce,
  discriminatedUnion,
  enum,
  int,
  iso,
  literal,
  maxLength,
  maximum,
  minLength,
  minimum,
  nullable,
  number,
  object,
  optional,
  partial,
  pipe,
  record,
  refine,
  regex,
  strictObject,
  string,
  transform,
  union,
  unknown,
} from 'zod/mini';
export type { infer, ZodMiniType as ZodType, ZodMiniUnknown as ZodUnknown } from 'zod/mini';
export type { $ZodError as ZodError } from 'zod/v4/core';

/**
 * Builds a schema at load. Call it as `/* @__PURE__ *\/ z.schema(() => ...)`: the annotation tells
 * esbuild the call has no side effects, so a bundle that imports a schema module for one schema
 * (GET /tasks/{task_id} shares its module with the task-creation body) drops the others, and zod
 * never builds, nor V8 compiles, what that function never parses. Without it a schema built with a
 * method call (`.check(...)`) stays in every bundle that imports its module.
 */
export function schema<T>(build: () => T): T {
  return build();
}
