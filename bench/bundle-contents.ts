import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { scanDetectorWorker } from '#shared/config/topology';
import { BUNDLE_ALIASES } from '#lib/bundling/aliases';
import { repositoryRoot } from '#lib/local/handler-loader';
import type { BenchFunction } from './functions';

/**
 * The bundling options of `GatehouseFunction` (lib/constructs/gatehouse-function.ts), for esbuild's
 * API: ESM, minified, node22, source maps without the sources' text, `module` before `main`, the
 * createRequire banner, the package aliases, nothing external.
 */
export const CDK_BUNDLING = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  external: [],
  alias: BUNDLE_ALIASES,
  metafile: true,
  logLevel: 'silent',
} as const;

/** NODE_OPTIONS of every function's environment (`GatehouseFunction`): stack traces through the source map. */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/** Packages worth naming when a bundle carries them. */
export const HEAVY = /^(jsdom|axe-core|pdfkit|csv-stringify|nodemailer|@aws-sdk\/client-[a-z0-9-]+|@aws-sdk\/s3-request-presigner|@aws-lambda-powertools\/tracer|aws-xray-sdk-core)$/;

type Access = BenchFunction['access'];
const flag = (access: Access, name: string): boolean => Object.entries(access).some(([key, value]) => key === name && value === true);

/**
 * Which declared access each heavy package serves. A bundle that includes a package whose
 * condition is false for its function bundles code it never calls.
 */
export const NEEDED_FOR: { pattern: RegExp; needed: (fn: BenchFunction) => boolean }[] = [
  { pattern: /^@aws-sdk\/client-dynamodb$/, needed: (fn) => fn.access.table !== 'none' },
  { pattern: /^@aws-sdk\/client-dynamodb-streams$/, needed: () => false },
  // Queue consumers also call SQS themselves: a failed record's visibility is shortened so it
  // retries soon (retry-soon.ts; ChangeMessageVisibility comes with the event source's grant).
  { pattern: /^@aws-sdk\/client-sqs$/, needed: ({ access, kind }) => kind === 'consumer' || ['dispatchTasks', 'dispatchToolCalls', 'dispatchDeliveries', 'dispatchScans', 'dispatchRetention'].some((name) => flag(access, name)) },
  { pattern: /^@aws-sdk\/client-scheduler$/, needed: ({ access }) => flag(access, 'schedules') },
  { pattern: /^(@aws-sdk\/client-sesv2|nodemailer)$/, needed: ({ access }) => flag(access, 'sendMail') },
  { pattern: /^@aws-sdk\/client-kms$/, needed: ({ access }) => flag(access, 'encryptSecrets') || flag(access, 'decryptSecrets') },
  { pattern: /^(@aws-sdk\/client-s3|@aws-sdk\/s3-request-presigner|pdfkit|csv-stringify)$/, needed: ({ access }) => flag(access, 'exportBucket') },
  // The accessibility rules run on a DOM only in the detector worker; exports read the generated
  // rule table (shared/scans/detectors/accessibility-rules.ts).
  { pattern: /^(jsdom|axe-core)$/, needed: (fn) => fn.handler === scanDetectorWorker.handler },
];

/** `node_modules/@scope/name/lib/x.js` → `@scope/name`; the project's own files → undefined. */
export function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = path.slice(at + 'node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Bytes each package contributes to the output, from esbuild's metafile (one output or all). */
export function packageBytes(metafile: Metafile, outputs: Metafile['outputs'][string][] = Object.values(metafile.outputs)): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const output of outputs) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      if (name) bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return bytes;
}

export function unneededPackages(fn: BenchFunction, packages: Iterable<string>): string[] {
  return [...packages].filter((name) => NEEDED_FOR.some((rule) => rule.pattern.test(name) && !rule.needed(fn))).sort();
}

/** What one function's bundle holds: bytes of JavaScript and bytes per package. */
export interface BundleContents {
  fn: BenchFunction;
  bytes: number;
  packages: Map<string, number>;
  /** Every input file in the bundle, as esbuild names it (relative to the repository). */
  files: string[];
}

/**
 * Bundles every function as CDK does, in memory and in one esbuild run (one output per entry, no
 * code splitting, so each output is exactly one function's bundle), and reports what each holds.
 */
export async function bundleContents(functions: readonly BenchFunction[]): Promise<BundleContents[]> {
  const entryPoints = functions.map((fn, index) => ({ in: join(repositoryRoot, fn.handler), out: `fn${index}/index` }));
  const result = await build({ ...CDK_BUNDLING, mainFields: [...CDK_BUNDLING.mainFields], external: [], sourcemap: false, write: false, outdir: join(repositoryRoot, '.bundle-contents'), outExtension: { '.js': '.mjs' }, entryPoints });
  return functions.map((fn, index) => {
    const [, output] = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(`fn${index}/index.mjs`)) ?? [];
    if (!output) throw new Error(`esbuild produced no bundle for ${fn.handler}`);
    return { fn, bytes: output.bytes, packages: packageBytes(result.metafile, [output]), files: Object.keys(output.inputs) };
  });
}
