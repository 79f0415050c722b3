import type { BuildOptions } from 'esbuild';
import { BUNDLE_ALIASES } from '#lib/bundling/aliases';

/** The module Lambda loads (`index.handler`), `index.mjs` in every function's asset directory. */
export const BUNDLE_ENTRY_NAME = 'index';
export const BUNDLE_ENTRY_FILE = `${BUNDLE_ENTRY_NAME}.mjs`;

/**
 * NODE_OPTIONS of every function: stack traces through the source maps. Node then reads and parses
 * the map of every file it loads, at load.
 */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/** First line of every output file: CommonJS dependencies inside ESM still call `require` for Node built-ins. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * How every function is bundled, for esbuild's API: by `GatehouseFunction` for deployment and by
 * the benchmark (bench/bundles.ts), so the bench measures what deploys. Callers add
 * `absWorkingDir` (the repository), `entryPoints` and `outdir` (the function's asset directory).
 *
 * Code-split: each `await import(...)` becomes a file of its own that Node loads on first use,
 * instead of code inlined into `index.mjs` that V8 parses and compiles at every cold start whether
 * it runs or not (the scan export's pdfkit, csv-stringify and S3 client; the AWS SDK's credential
 * providers other than the environment's). Code a lazy file shares with the entry goes into a
 * shared chunk that the entry imports statically. Chunks sit beside `index.mjs`, not in a folder:
 * dependencies find their companion files (lib/bundling/companions.ts) through
 * `import.meta.url` of the file they are bundled into, which then is the same directory.
 */
export const FUNCTION_BUNDLING = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  minify: true,
  splitting: true,
  entryNames: BUNDLE_ENTRY_NAME,
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  sourcemap: true,
  // Stack traces need only the mappings; under FUNCTION_NODE_OPTIONS Node parses the whole map at
  // load, and the sources' text would triple its size.
  sourcesContent: false,
  // Prefer ESM entry points of dependencies so esbuild can tree-shake them.
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  // Bundle the AWS SDK too: the version we test against, not whatever the runtime ships.
  external: [],
  alias: BUNDLE_ALIASES,
  metafile: true,
  // Errors are thrown with their messages; warnings (dependencies' `require.resolve`) are known.
  logLevel: 'silent',
} satisfies BuildOptions;
