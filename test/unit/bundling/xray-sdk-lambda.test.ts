import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_ENTRY_FILE, FUNCTION_BUNDLING } from '#lib/bundling/esbuild-options';
import xraySdkLambda from '#lib/bundling/xray-sdk-lambda';
import { repositoryRoot } from '#lib/local/handler-loader';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const SDK = 'node_modules/aws-xray-sdk-core';

/**
 * The upstream files xray-sdk-lambda.ts mirrors (the entry's members, the Lambda mode's facade
 * segment), as of the SDK version it was written against.
 */
const MIRRORED = {
  version: '3.12.0',
  files: {
    'dist/lib/aws-xray.js': '96f22cd7d3ff28d3549a3476423f7e485a1c29e8ed5f47feea222ef7e0bc73ba',
    'dist/lib/env/aws_lambda.js': '6a0cc939d27f5d9490de458779205fa30d70788e84dc510bccd9102dd9d71317',
  },
};

const sha256 = (path: string) => createHash('sha256').update(readFileSync(join(repositoryRoot, SDK, path))).digest('hex');

/**
 * What a process sees of the SDK in Lambda mode (LAMBDA_TASK_ROOT set before it loads): the facade
 * segment it sets at load, what the facade does with data and with each trace header Lambda may
 * pass, and the warnings it logs. `X` is the SDK's default export.
 */
const DESCRIBE_LAMBDA_MODE = `
const warnings = [];
X.setLogger({ debug() {}, info() {}, warn: (message) => warnings.push(message), error: (message) => warnings.push('error: ' + message) });
const facade = X.getSegment();
// A header without a parent gets a random one.
const id = () => (['53995c3f42cd8ad8', '6b3a1e2f7c9d0e11', '00000000'].includes(facade.id) ? facade.id : 'random ' + facade.id.length);
const state = () => ({ trace_id: facade.trace_id, id: id(), notTraced: facade.notTraced, noOp: facade.noOp, facade: facade.facade, in_progress: facade.in_progress, counter: facade.counter, closed: facade.isClosed(), subsegments: facade.subsegments?.length });
const described = { automatic: X.isAutomaticMode(), members: Object.keys(facade).sort().map((key) => key + ':' + typeof facade[key]), atLoad: state() };
described.dataCalls = [facade.addAnnotation('a', 1), facade.addMetadata('m', 1), facade.addError(new Error('e')), facade.close(), facade.flush()];
process.env._X_AMZN_TRACE_ID = 'Root=1-67a0a0a0-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1';
facade.resolveLambdaTraceData();
described.sampled = state();
const child = facade.addNewSubsegment('child');
described.child = { parent: child.parent === facade, segment: child.segment === facade, trace: child.segment.trace_id, notTraced: child.notTraced };
facade.resolveLambdaTraceData();
described.sameHeaderAgain = state();
process.env._X_AMZN_TRACE_ID = 'Root=1-67a0a0a1-76543210fedcba9876543210;Parent=6b3a1e2f7c9d0e11;Sampled=0';
facade.resolveLambdaTraceData();
described.notSampled = state();
process.env._X_AMZN_TRACE_ID = 'Root=1-67a0a0a2-00000000000000000000000a';
facade.resolveLambdaTraceData();
described.rootOnly = state();
delete process.env._X_AMZN_TRACE_ID;
facade.resolveLambdaTraceData();
described.noHeader = state();
X.enableManualMode();
described.afterManualMode = X.isAutomaticMode();
described.warnings = warnings.map((warning) => String(warning).split('\\n')[0]);
console.log(JSON.stringify(described));`;

async function describeLambdaMode(load: string): Promise<unknown> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', `${load}\n${DESCRIBE_LAMBDA_MODE}`], {
    env: { PATH: process.env.PATH ?? '', LAMBDA_TASK_ROOT: tmpdir(), AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR', AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:9' },
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

describe('the X-Ray SDK of function bundles (lib/bundling/xray-sdk-lambda.ts)', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'gatehouse-xray-'));
  let bundled: string;

  beforeAll(async () => {
    // The SDK as a function bundle imports it: through FUNCTION_BUNDLING's alias.
    await build({ ...FUNCTION_BUNDLING, absWorkingDir: repositoryRoot, outdir, stdin: { contents: "export { default } from 'aws-xray-sdk-core';", resolveDir: repositoryRoot, sourcefile: 'xray.ts', loader: 'ts' } });
    bundled = pathToFileURL(join(outdir, BUNDLE_ENTRY_FILE)).href;
  }, 60_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('mirrors the SDK files of the version installed (a new SDK version: check the stand-in against it, then update MIRRORED)', () => {
    const installed = { version: (require('aws-xray-sdk-core/package.json') as { version: string }).version, files: Object.fromEntries(Object.keys(MIRRORED.files).map((path) => [path, sha256(path)])) };

    expect(installed).toEqual(MIRRORED);
  });

  it("has every member of the SDK's entry, each of the same kind", () => {
    const sdk = require('aws-xray-sdk-core') as Record<string, unknown>;
    const kinds = (members: Record<string, unknown>) => Object.fromEntries(Object.keys(members).map((key) => [key, typeof members[key]]));

    expect(kinds(xraySdkLambda as unknown as Record<string, unknown>)).toEqual(kinds(sdk));
  });

  it('throws, naming the stand-in, where a member left out is used', () => {
    expect(() => xraySdkLambda.captureAWS({})).toThrow(/captureAWS \(AWS SDK v2\) is not bundled .*xray-sdk-lambda\.ts.*captureAWSv3Client/);
    expect(() => xraySdkLambda.captureAWSClient({})).toThrow(/not bundled/);
    expect(() => xraySdkLambda.capturePromise()).toThrow(/not bundled/);
    expect(() => xraySdkLambda.config([])).toThrow(/not bundled/);
    expect(() => (xraySdkLambda.plugins as Record<string, unknown>).EC2Plugin).toThrow(/plugins\.EC2Plugin is not bundled/);
    expect(() => (xraySdkLambda.middleware as Record<string, unknown>).enableDynamicNaming).toThrow(/middleware\.enableDynamicNaming is not bundled/);
    expect(() => (xraySdkLambda.database as Record<string, unknown>).SqlData).toThrow(/not bundled/);
  });

  it("sets up Lambda mode as the SDK's entry does: the facade segment and what it does with each trace header", async () => {
    const sdk = await describeLambdaMode(`import { createRequire } from 'node:module'; const X = createRequire(${JSON.stringify(join(repositoryRoot, 'package.json'))})('aws-xray-sdk-core');`);
    const standIn = await describeLambdaMode(`const X = (await import(${JSON.stringify(bundled)})).default;`);

    expect(standIn).toEqual(sdk);
    expect(sdk).toMatchObject({ atLoad: { facade: true, notTraced: true, closed: true }, sampled: { trace_id: '1-67a0a0a0-0123456789abcdef01234567', id: '53995c3f42cd8ad8' } });
  });
});
