import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '#lib/bundling/aliases';
import { BUNDLE_ENTRY_FILE, FUNCTION_BUNDLING, FUNCTION_NODE_OPTIONS } from '#lib/bundling/esbuild-options';
import { repositoryRoot } from '#lib/local/handler-loader';

const run = promisify(execFile);

const FIXTURE = 'test/fixtures/traced-handler.ts';
/** The stand-ins of lib/bundling/aliases.ts that tracing runs through. */
const TRACING_ALIASES = ['aws-xray-sdk-core', 'emitter-listener', 'node:stream/web'];
const TRACE_OK = { root: '1-67a0a0a0-0123456789abcdef01234567', parent: '53995c3f42cd8ad8' };
const TRACE_FAILED = { root: '1-67a0a0a1-76543210fedcba9876543210', parent: '6b3a1e2f7c9d0e11' };
const traceHeader = (trace: typeof TRACE_OK) => `Root=${trace.root};Parent=${trace.parent};Sampled=1`;

/** A segment document as the X-Ray SDK sends it to the daemon (the fields these tests read). */
interface SegmentDocument {
  id: string;
  name: string;
  trace_id: string;
  parent_id?: string;
  namespace?: string;
  start_time?: number;
  end_time?: number;
  fault?: boolean;
  annotations?: Record<string, unknown>;
  aws?: { operation?: string };
  http?: { request?: { url?: string } };
  cause?: { exceptions?: { id?: string; message: string; stack?: unknown }[] };
  subsegments?: SegmentDocument[];
}

/** Every document and the subsegments nested in it, flattened. */
const flatten = (documents: SegmentDocument[]): SegmentDocument[] => documents.flatMap((document) => [document, ...flatten(document.subsegments ?? [])]);

/** A document without what differs between any two runs (ids, times, stack frames), for comparison. */
function comparable({ id: _id, parent_id: parentId, start_time: _start, end_time: _end, subsegments: _subsegments, cause, ...rest }: SegmentDocument) {
  const fromLambda = parentId === TRACE_OK.parent || parentId === TRACE_FAILED.parent;
  return { ...rest, parent: fromLambda ? parentId : 'subsegment', ...(cause ? { cause: { exceptions: cause.exceptions?.map(({ message }) => message) } } : {}) };
}
const byKey = (documents: SegmentDocument[]) => flatten(documents).map(comparable).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

interface Run {
  metafile: Metafile;
  /** What the two invocations answered. */
  output: unknown;
  documents: SegmentDocument[];
}

/**
 * Bundles the fixture into `outdir` and runs it in a fresh Node as Lambda's runtime would run a
 * traced function: the SDK's Lambda mode (LAMBDA_TASK_ROOT), Powertools on (AWS_EXECUTION_ENV),
 * the trace header of each invocation in _X_AMZN_TRACE_ID, the segments sent to `daemon`. Two
 * invocations: one that succeeds, one that throws.
 */
async function bundleAndInvoke(outdir: string, alias: Record<string, string>, daemon: Socket, baseUrl: string): Promise<Run> {
  const documents: SegmentDocument[] = [];
  // Each datagram is a header line and one segment document.
  const receive = (message: Buffer) => documents.push(JSON.parse(String(message).split('\n')[1]) as SegmentDocument);
  daemon.on('message', receive);
  try {
    const { metafile } = await build({ ...FUNCTION_BUNDLING, alias, absWorkingDir: repositoryRoot, entryPoints: [join(repositoryRoot, FIXTURE)], outdir });
    const script = `globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };
const { handler } = await import(process.argv[1]);
const context = { functionName: 'traced', awsRequestId: 'req-1', invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:traced', memoryLimitInMB: '512', getRemainingTimeInMillis: () => 10000 };
const results = [];
process.env._X_AMZN_TRACE_ID = process.argv[3];
results.push(await handler({ baseUrl: process.argv[2] }, context));
process.env._X_AMZN_TRACE_ID = process.argv[4];
results.push(await handler({ baseUrl: process.argv[2], fail: true }, { ...context, awsRequestId: 'req-2' }).catch((error) => error.message));
console.log(JSON.stringify(results));`;
    const entry = join(outdir, BUNDLE_ENTRY_FILE);
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(entry).href, baseUrl, traceHeader(TRACE_OK), traceHeader(TRACE_FAILED)], {
      env: {
        PATH: process.env.PATH ?? '',
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_ENDPOINT_URL_DYNAMODB: baseUrl,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
        AWS_LAMBDA_FUNCTION_NAME: 'traced',
        AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
        LAMBDA_TASK_ROOT: outdir,
        _HANDLER: 'index.handler',
        AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
        AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
        NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        POWERTOOLS_METRICS_DISABLED: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
      timeout: 30_000,
    });
    // The process sent its datagrams before it ended; give the last ones a bounded moment to arrive.
    const until = Date.now() + 5_000;
    while (Date.now() < until && !flatten(documents).some((document) => document.trace_id === TRACE_FAILED.root && document.name === '## index.handler')) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { metafile, output: JSON.parse(stdout), documents };
  } finally {
    daemon.off('message', receive);
  }
}

/**
 * Function bundles trace through lib/bundling/xray-sdk-lambda.ts instead of the X-Ray SDK's entry
 * (and two smaller stand-ins). A bundled function run in the SDK's Lambda mode proves that what
 * tracing records on Lambda still reaches the daemon (the handler's subsegment with its
 * annotations, a subsegment per AWS SDK call, per `node:http` request and per `fetch`, the error of
 * a failed invocation), and records exactly what the same function bundled with the SDK's own
 * entry does.
 */
describe('tracing in a function bundle', () => {
  const root = mkdtempSync(join(tmpdir(), 'gatehouse-traced-'));
  let daemon: Socket;
  let server: Server;
  let standIns: Run;
  let sdkEntry: Run;

  beforeAll(async () => {
    daemon = createSocket('udp4');
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    // DynamoDB's ListTables, and the two outbound requests.
    server = createServer((request, response) => {
      request.resume().on('end', () => {
        if (request.url === '/') response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"TableNames":[]}');
        else response.writeHead(200, { 'content-type': 'text/plain' }).end('pong');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    standIns = await bundleAndInvoke(join(root, 'stand-ins'), BUNDLE_ALIASES, daemon, baseUrl);
    const withoutTracingStandIns = Object.fromEntries(Object.entries(BUNDLE_ALIASES).filter(([name]) => !TRACING_ALIASES.includes(name)));
    sdkEntry = await bundleAndInvoke(join(root, 'sdk-entry'), withoutTracingStandIns, daemon, baseUrl);
  }, 120_000);

  afterAll(async () => {
    daemon?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('bundles the stand-ins instead of the SDK’s entry, its samplers, plugins and v2 patcher', () => {
    const inputs = Object.keys(standIns.metafile.inputs);

    for (const standIn of ['lib/bundling/xray-sdk-lambda.ts', 'lib/bundling/emitter-listener-absent.ts', 'lib/bundling/web-readable-stream.ts']) expect(inputs, standIn).toContain(standIn);
    expect(inputs.filter((input) => /aws-xray-sdk-core\/dist\/lib\/(aws-xray|index|env\/|middleware\/|segments\/plugins\/|patchers\/(aws|promise)_p|database\/)|node_modules\/(emitter-listener|shimmer)\//.test(input))).toEqual([]);
    // What tracing runs is the SDK's own code.
    expect(inputs).toEqual(expect.arrayContaining(['node_modules/aws-xray-sdk-core/dist/lib/patchers/aws3_p.js', 'node_modules/aws-xray-sdk-core/dist/lib/patchers/http_p.js', 'node_modules/cls-hooked/context.js']));
  });

  it('answers both invocations', () => {
    expect(standIns.output).toEqual([{ statusCode: 200, body: 'ok' }, 'fixture failure']);
  });

  it("records the handler's subsegment under Lambda's segment, with the cold start and service annotations", () => {
    const handler = flatten(standIns.documents).find((document) => document.trace_id === TRACE_OK.root && document.name === '## index.handler');

    expect(handler).toMatchObject({ parent_id: TRACE_OK.parent, annotations: { ColdStart: true, Service: 'gatehouse', fixture: 'traced' } });
    expect(handler?.fault).toBeFalsy();
  });

  it('records a subsegment for the AWS SDK call, one for the node:http request, one for fetch and one for a webhook delivery', () => {
    const traced = flatten(standIns.documents).filter((document) => document.trace_id === TRACE_OK.root);

    expect(traced).toContainEqual(expect.objectContaining({ name: 'DynamoDB', namespace: 'aws', aws: expect.objectContaining({ operation: 'ListTables' }) }));
    const urls = traced.filter((document) => document.namespace === 'remote').map((document) => document.http?.request?.url);
    expect(urls).toEqual(expect.arrayContaining([expect.stringMatching(/\/node-http$/), expect.stringMatching(/\/fetch$/), expect.stringMatching(/\/webhook$/)]));
  });

  it("records a failed invocation's error on its handler subsegment, in that invocation's trace", () => {
    const handler = flatten(standIns.documents).find((document) => document.trace_id === TRACE_FAILED.root && document.name === '## index.handler');

    expect(handler).toMatchObject({ parent_id: TRACE_FAILED.parent, fault: true, annotations: { ColdStart: false } });
    expect(handler?.cause?.exceptions?.[0]?.message).toBe('fixture failure');
  });

  it('records what the same function bundled with the SDK’s own entry records', () => {
    expect(Object.keys(sdkEntry.metafile.inputs)).toContain('node_modules/aws-xray-sdk-core/dist/lib/aws-xray.js');
    expect(sdkEntry.output).toEqual(standIns.output);

    expect(byKey(standIns.documents)).toEqual(byKey(sdkEntry.documents));
    expect(standIns.documents).toHaveLength(10);
  });
});
