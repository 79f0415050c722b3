import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { installedPackages, writeCompanions } from '#lib/bundling/companions';
import { BUNDLE_ENTRY_FILE, FUNCTION_BUNDLING, FUNCTION_NODE_OPTIONS } from '#lib/bundling/esbuild-options';
import { repositoryRoot } from '#lib/local/handler-loader';
import { HEAVY, packageBytes, splitBundle, unneededPackages } from './bundle-contents';
import type { BenchFunction } from './functions';
import { progress } from './progress';
import type { BundleReport, BundleResult } from './results';
import { median } from './stats';

const run = promisify(execFile);

/** The floor: a handler that only imports the DynamoDB client and creates it at load, as handlers do. */
const FLOOR_SOURCE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({});
export const handler = async () => ({ statusCode: 200, body: client ? 'ok' : '' });
`;

interface Built {
  /** The entry, `index.mjs`, which init imports. */
  file: string;
  /** What init loads: the entry and the chunks it imports statically. */
  bytes: number;
  /** Every other chunk, loaded by an `import()` on first use. */
  lazyBytes: number;
  /** Bytes per package over all of the bundle's files, and the packages only lazy chunks hold. */
  packages: Map<string, number>;
  lazyPackages: Set<string>;
}

const sum = (outputs: Metafile['outputs'][string][]) => outputs.reduce((total, output) => total + output.bytes, 0);

/** Bundles as `GatehouseFunction` does, companion files included, into `outdir`. */
async function bundle(outdir: string, entry: { file: string } | { source: string }): Promise<Built> {
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    ...FUNCTION_BUNDLING,
    ...('file' in entry ? { external: installedPackages(entry.file) } : {}),
    absWorkingDir: repositoryRoot,
    outdir,
    ...('file' in entry ? { entryPoints: [join(repositoryRoot, entry.file)] } : { stdin: { contents: entry.source, resolveDir: repositoryRoot, loader: 'ts' as const, sourcefile: 'floor.ts' } }),
  });
  if ('file' in entry) writeCompanions(entry.file, repositoryRoot, outdir);
  const { initial, lazy } = splitBundle(result.metafile);
  const loaded = packageBytes(result.metafile, initial);
  const packages = packageBytes(result.metafile, [...initial, ...lazy]);
  return { file: join(outdir, BUNDLE_ENTRY_FILE), bytes: sum(initial), lazyBytes: sum(lazy), packages, lazyPackages: new Set([...packages.keys()].filter((name) => !loaded.has(name))) };
}

/**
 * The environment a deployed function starts in, as far as init reads it: what the Lambda runtime
 * sets (Powertools turns tracing on when it sees AWS_EXECUTION_ENV, the X-Ray SDK enters its Lambda
 * mode when it sees LAMBDA_TASK_ROOT) and what `GatehouseFunction` adds (NODE_OPTIONS: with source
 * maps on, Node reads and parses each bundle's map at load). Without them a bundle would be measured
 * with tracing off and no source maps, which is not what runs.
 */
function lambdaEnv(file: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_LAMBDA_FUNCTION_NAME: 'bench',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    LAMBDA_TASK_ROOT: dirname(file),
    AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
    AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
    NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
    TABLE_NAME: 'bench',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/**
 * Module init of one bundle in a fresh `node`: the CPU time (user + system, all of the process's
 * threads) its top-level import takes, which is what a cold start adds on top of the runtime's own
 * start. CPU rather than wall time: on a shared machine wall time mostly measures the neighbours
 * (the same bundle ranged over 2× between rounds), while the work of loading a bundle is CPU
 * bound (reading it and its map comes from the page cache), and on Lambda, whose CPU share
 * follows memory, CPU time is what init costs. Lambda's streaming global is stubbed.
 */
async function initMs(node: string, file: string): Promise<number> {
  const script = `globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };
const started = process.cpuUsage();
await import(process.argv[1]);
const used = process.cpuUsage(started);
process.stdout.write(String((used.user + used.system) / 1000));`;
  const { stdout } = await run(node, ['--input-type=module', '-e', script, pathToFileURL(file).href], { env: lambdaEnv(file), timeout: 60_000 });
  return Number(stdout);
}

/**
 * Bundles every function as CDK does, measures its size and module init time beside the floor,
 * and names the heavy packages each carries and those its declared access never needs.
 */
export async function measureBundles(functions: readonly BenchFunction[], runs: number, node = process.execPath): Promise<BundleReport> {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-bench-bundles-'));
  try {
    progress(`bundles: building ${functions.length} functions and the floor`);
    const floor = await bundle(join(root, 'floor'), { source: FLOOR_SOURCE });
    const built = [];
    for (const [index, fn] of functions.entries()) built.push({ fn, ...(await bundle(join(root, String(index)), { file: fn.handler })) });
    // Rounds over all bundles rather than all runs of one bundle: noise from a shared machine
    // then falls on every bundle alike.
    progress(`bundles: ${runs} init rounds`);
    const floorTimes: number[] = [];
    const times = built.map((): number[] => []);
    for (let round = 0; round < runs; round++) {
      floorTimes.push(await initMs(node, floor.file));
      for (const [index, entry] of built.entries()) times[index].push(await initMs(node, entry.file));
    }
    const results: BundleResult[] = built.map((entry, index) => ({
      handler: entry.fn.handler,
      label: entry.fn.label,
      kind: entry.fn.kind,
      bytes: entry.bytes,
      lazyBytes: entry.lazyBytes,
      initMs: median(times[index]),
      heavy: [...entry.packages]
        .filter(([name]) => HEAVY.test(name))
        .map(([name, bytes]) => ({ name, bytes, lazy: entry.lazyPackages.has(name) }))
        .sort((a, b) => b.bytes - a.bytes),
      unneeded: unneededPackages(entry.fn, entry.packages.keys()),
    }));
    const { stdout: nodeVersion } = await run(node, ['--version']);
    return { node: nodeVersion.trim(), floor: { bytes: floor.bytes, lazyBytes: floor.lazyBytes, initMs: median(floorTimes) }, functions: results };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
