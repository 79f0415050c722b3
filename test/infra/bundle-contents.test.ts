import { beforeAll, describe, expect, it } from 'vitest';
import { bundleContents, unneededPackages, type BundleContents } from '../../bench/bundle-contents';
import { benchFunctions } from '../../bench/functions';

/**
 * Every function bundles only what its declared access lets it call (issue 5): a read-only route
 * that imports a service which also dispatches carries the SQS client; a webhook read that imports
 * the cipher carries KMS; the export that imports the detector carries jsdom. Bundled as CDK does
 * (bench/bundle-contents.ts), in memory, all functions in one esbuild run.
 */
describe('function bundle contents', () => {
  let bundles: BundleContents[];

  beforeAll(async () => {
    bundles = await bundleContents(benchFunctions());
  }, 120_000);

  it('bundles no package a function’s declared access never uses', () => {
    const offenders = bundles.map(({ fn, packages }) => ({ handler: fn.handler, unneeded: unneededPackages(fn, packages.keys()) })).filter(({ unneeded: names }) => names.length > 0);

    expect(offenders).toEqual([]);
  });

  it('bundles the client of every grant it declares: a flag whose client is missing is a grant nothing uses', () => {
    const clientOf: Record<string, string> = {
      dispatchTasks: '@aws-sdk/client-sqs',
      dispatchToolCalls: '@aws-sdk/client-sqs',
      dispatchDeliveries: '@aws-sdk/client-sqs',
      dispatchScans: '@aws-sdk/client-sqs',
      dispatchRetention: '@aws-sdk/client-sqs',
      schedules: '@aws-sdk/client-scheduler',
      sendMail: '@aws-sdk/client-sesv2',
      encryptSecrets: '@aws-sdk/client-kms',
      decryptSecrets: '@aws-sdk/client-kms',
      exportBucket: '@aws-sdk/client-s3',
    };
    const unused = bundles.flatMap(({ fn, packages }) =>
      Object.entries(fn.access)
        .filter(([name, granted]) => granted === true && name in clientOf && !packages.has(clientOf[name]))
        .map(([name]) => `${fn.handler}: ${name}`),
    );

    expect(unused).toEqual([]);
  });

  it('bundles zod without its other locales: schemas import #shared/zod, never the `z` namespace object', () => {
    const withLocales = bundles.filter(({ files }) => files.some((file) => /node_modules\/zod\/.*\/locales\/(?!en\.js$|index)/.test(file))).map(({ fn }) => fn.handler);

    expect(withLocales).toEqual([]);
  });

  it('takes node:http with require, never as an ES module: Node 22 would load undici for its facade at every cold start', () => {
    const esmImports = bundles.flatMap(({ fn, imports }) => imports.filter(({ path, kind, external }) => external && /^(node:)?http$/.test(path) && kind !== 'require-call').map(({ from, kind }) => `${fn.handler}: ${from} (${kind})`));

    expect(bundles.every(({ files }) => files.includes('lib/bundling/node-http-required.ts'))).toBe(true);
    expect(esmImports).toEqual([]);
  });

  it('gives assert, whose stand-in has only `ok`, only to importers that call nothing else', () => {
    const importers = new Set(bundles.flatMap(({ imports }) => imports.filter(({ path }) => path === 'lib/bundling/assert-ok.ts' || /^(node:)?assert(\/strict)?$/.test(path)).map(({ from, path }) => `${from} -> ${path}`)));

    // Both call `assert.ok(...)` or `assert(...)` and nothing else; read a new importer before adding it here.
    expect([...importers].sort()).toEqual(['node_modules/cls-hooked/context.js -> lib/bundling/assert-ok.ts', 'node_modules/https-proxy-agent/dist/index.js -> lib/bundling/assert-ok.ts']);
  });

  it('keeps the manifests’ input schemas out of the routes that only resolve a slug', () => {
    const withSchemas = bundles.filter(({ files }) => files.includes('shared/agents/sales/input-schemas.ts')).map(({ fn }) => fn.handler);

    for (const handler of ['functions/tasks/create-task.ts', 'functions/tasks/list-tasks.ts', 'functions/approvals/list-approvals.ts', 'functions/events/list-events.ts', 'functions/events/stream-events.ts']) {
      expect(withSchemas).not.toContain(handler);
    }
    expect(withSchemas).toContain('functions/agents/get-agent-manifest.ts');
  });

  it('keeps the agents’ code and sample data in the task worker: API routes read manifests only', () => {
    const withAgents = bundles.filter(({ files }) => files.some((file) => /^shared\/agents\/(sales\/sales-agent|sales\/sample-leads|ai-readiness\/ai-readiness-agent)\.ts$/.test(file))).map(({ fn }) => fn.handler);

    expect(withAgents).toEqual(['functions/workers/run-task.ts']);
  });

  it('keeps the mailer in the tool proxy, KMS in the cipher’s functions, jsdom in the detector worker', () => {
    const holders = (name: string) => bundles.filter(({ packages }) => packages.has(name)).map(({ fn }) => fn.handler).sort();

    expect(holders('nodemailer')).toEqual(['functions/workers/execute-tool-call.ts']);
    expect(holders('@aws-sdk/client-sesv2')).toEqual(['functions/workers/execute-tool-call.ts']);
    expect(holders('jsdom')).toEqual(['functions/workers/run-detector.ts']);
    expect(holders('axe-core')).toEqual(['functions/workers/run-detector.ts']);
    expect(holders('@aws-sdk/client-kms')).toEqual(['functions/webhooks/create-webhook.ts', 'functions/webhooks/rotate-webhook-secret.ts', 'functions/workers/deliver-webhook.ts']);
  });

  it('replaces packages with their stand-ins (lib/bundling/aliases.ts) in every bundle', () => {
    const replaced = ['semver', 'fontkit', 'emitter-listener', 'shimmer'];
    const withOriginals = bundles.filter(({ packages }) => replaced.some((name) => packages.has(name))).map(({ fn }) => fn.handler);
    const withXrayEntry = bundles.filter(({ files }) => files.some((file) => file.endsWith('aws-xray-sdk-core/dist/lib/aws-xray.js'))).map(({ fn }) => fn.handler);
    const exportBundle = bundles.find(({ fn }) => fn.handler === 'functions/scans/export-scan.ts');

    expect(withOriginals).toEqual([]);
    expect(withXrayEntry).toEqual([]);
    expect(exportBundle?.files).toContain('lib/bundling/fontkit-absent.ts');
    // Every function traces, through the Lambda stand-in of the X-Ray SDK's entry.
    expect(bundles.filter(({ files }) => !files.includes('lib/bundling/xray-sdk-lambda.ts')).map(({ fn }) => fn.handler)).toEqual([]);
  });
});
