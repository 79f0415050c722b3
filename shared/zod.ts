import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The parts of zod Gatehouse uses, from `zod/mini`, as named exports; import it as a namespace
 * (`import * as z from '#shared/zod'`) to keep the `z.` spelling. Classic zod gives every schema
 * instance all its methods and weighs about 95 KB in a bundle, which every API function parsed and
 * ran at cold start (about 9 ms of init); the mini API builds the same schemas from functions
 * (`z.optional(x)`, `.check(z.maxLength(64))`) at a fraction of that. Never `import { z } from 'zod'`:
 * that namespace object drags every locale in.
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
  enum,
  int,
  iso,
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
