import { basename, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { scanDetectorWorker } from '#shared/config/topology';
import { installedPackages } from '#lib/bundling/companions';
import { BUNDLE_ENTRY_FILE, FUNCTION_BUNDLING } from '#lib/bundling/esbuild-options';
import { repositoryRoot } from '#lib/local/handler-loader';
import type { BenchFunction } from './functions';

/** Packages worth naming when a bundle carries them. */
export const HEAVY = /^(jsdom|axe-core|pdfkit|csv-stringify|nodemailer|mailparser|@octokit\/[a-z0-9-]+|@slack\/web-api|@aws-sdk\/client-[a-z0-9-]+|@aws-sdk\/s3-request-presigner|@aws-lambda-powertools\/tracer|aws-xray-sdk-core)$/;

type Access = BenchFunction['access'];
const flag = (access: Access, name: string): boolean => Object.entries(access).some(([key, value]) => key === name && value === true);
/** Functions that hold an integration's credentials in clear: the routes that check them before sealing, and the tool proxy. */
const holdsCredentials = (access: Access): boolean => flag(access, 'encryptCredentials') || flag(access, 'decryptCredentials');
/** SES receiving's function (lib/constructs/inbound-mail.ts): it parses the message SES stored in S3. */
const RECEIVE_MAIL_HANDLER = 'functions/mail/receive-mail.ts';

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
  { pattern: /^@aws-sdk\/client-sesv2$/, needed: ({ access }) => flag(access, 'sendMail') },
  // SES's transport, and SMTP integrations (checked when connected, sent through by the tool proxy);
  // mailparser takes its address parser from nodemailer.
  { pattern: /^nodemailer$/, needed: ({ access, handler }) => flag(access, 'sendMail') || holdsCredentials(access) || handler === RECEIVE_MAIL_HANDLER },
  // The cipher's functions, and every function of the table: page cursors are signed with a key
  // KMS unwraps once per container (shared/adapters/crypto/page-cursor-key.ts).
  { pattern: /^@aws-sdk\/client-kms$/, needed: ({ access }) => access.table !== 'none' || flag(access, 'encryptSecrets') || flag(access, 'decryptSecrets') || holdsCredentials(access) },
  // Providers' clients: only where a credential is in clear, to check it (connecting) or to use it (the tool proxy).
  { pattern: /^(@octokit\/.+|@slack\/.+)$/, needed: ({ access }) => holdsCredentials(access) },
  // The tool proxy, invoked through the Lambda API.
  { pattern: /^@aws-sdk\/client-lambda$/, needed: ({ access }) => flag(access, 'invokeToolProxy') },
  { pattern: /^mailparser$/, needed: ({ handler }) => handler === RECEIVE_MAIL_HANDLER },
  { pattern: /^@aws-sdk\/client-s3$/, needed: ({ access, handler }) => flag(access, 'exportBucket') || handler === RECEIVE_MAIL_HANDLER },
  { pattern: /^(@aws-sdk\/s3-request-presigner|pdfkit)$/, needed: ({ access }) => flag(access, 'exportBucket') },
  // Scan exports and the month's usage as CSV.
  { pattern: /^csv-stringify$/, needed: ({ access, handler }) => flag(access, 'exportBucket') || handler === 'functions/usage/get-usage.ts' },
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

type Output = Metafile['outputs'][string];

/** Bytes each package contributes to the output, from esbuild's metafile (some outputs or all). */
export function packageBytes(metafile: Metafile, outputs: Output[] = Object.values(metafile.outputs)): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const output of outputs) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      if (name) bytes.set(name, (bytes.get(name) ?? 0) + input.bytesInOutput);
    }
  }
  return bytes;
}

/**
 * The code files of one code-split bundle (bundled with `FUNCTION_BUNDLING` into a directory of its
 * own): `initial` is what importing `index.mjs` loads, the entry and the chunks it imports
 * statically, transitively; `lazy` is every other chunk, loaded by an `import()` on first use.
 */
export function splitBundle(metafile: Metafile): { initial: Output[]; lazy: Output[] } {
  const code = new Map(Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.mjs')));
  const entry = [...code.keys()].find((path) => basename(path) === BUNDLE_ENTRY_FILE);
  if (!entry) throw new Error(`esbuild produced no ${BUNDLE_ENTRY_FILE}`);
  const initial = new Set<string>();
  const load = (path: string): void => {
    if (initial.has(path) || !code.has(path)) return;
    initial.add(path);
    for (const imported of code.get(path)!.imports) if (imported.kind === 'import-statement') load(imported.path);
  };
  load(entry);
  const outputs = (loaded: boolean) => [...code].filter(([path]) => initial.has(path) === loaded).map(([, output]) => output);
  return { initial: outputs(true), lazy: outputs(false) };
}

/** Packages among `packages` that a function's declared access never needs (NEEDED_FOR), sorted. */
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
  /**
   * Every import of the bundle's files: which file, what (a bundled file, or a module left outside,
   * `external`: Node's built-ins), and how (`import-statement`, `dynamic-import`, `require-call`).
   */
  imports: { from: string; path: string; kind: string; external: boolean }[];
}

/**
 * Bundles every function as CDK does, in memory and in one esbuild run, and reports what each
 * holds. Without code splitting here: across entries it would share chunks between functions;
 * unsplit, each output is exactly one function's code, everything it can load, at init or lazily
 * (a package the function never uses should not be bundled at all).
 */
export async function bundleContents(functions: readonly BenchFunction[]): Promise<BundleContents[]> {
  const entryPoints = functions.map((fn, index) => ({ in: join(repositoryRoot, fn.handler), out: `fn${index}/index` }));
  const external = [...new Set(functions.flatMap((fn) => installedPackages(fn.handler)))];
  const result = await build({ ...FUNCTION_BUNDLING, external, absWorkingDir: repositoryRoot, splitting: false, entryNames: '[dir]/[name]', sourcemap: false, write: false, outdir: join(repositoryRoot, '.bundle-contents'), entryPoints });
  return functions.map((fn, index) => {
    const [, output] = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(`fn${index}/index.mjs`)) ?? [];
    if (!output) throw new Error(`esbuild produced no bundle for ${fn.handler}`);
    const imports = Object.keys(output.inputs).flatMap((from) => result.metafile.inputs[from].imports.map(({ path, kind, external }) => ({ from, path, kind, external: external === true })));
    return { fn, bytes: output.bytes, packages: packageBytes(result.metafile, [output]), files: Object.keys(output.inputs), imports };
  });
}
