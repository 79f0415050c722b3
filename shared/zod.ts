/**
 * The parts of zod Gatehouse uses, as named exports; import it as a namespace
 * (`import * as z from '#shared/zod'`) to keep the `z.` spelling. `import { z } from 'zod'` hands
 * out one namespace object holding all of zod, every locale included (about 450 KB minified),
 * which esbuild cannot tree-shake: every function with a schema then parsed and ran all of it at
 * cold start. Through this module a bundle carries only the schema types it builds (about 90 KB).
 * Add a name here when a schema needs another zod builder.
 */
export { array, boolean, coerce, enum, iso, number, object, record, string, union, unknown } from 'zod';
export type { infer, ZodError, ZodType, ZodUnknown } from 'zod';
