import { beforeAll, describe, expect, it } from 'vitest';
import { bundleContents, unneededPackages, type BundleContents } from '../../bench/bundle-contents';
import { benchFunctions, type BenchFunction } from '../../bench/functions';
import { toolProxy } from '#shared/config/topology';
import { receiveMail } from '#lib/constructs/inbound-mail';

/** SES receiving's function, which the route table and topology do not declare (inbound-mail.ts does). */
const RECEIVE_MAIL: BenchFunction = { handler: receiveMail.handler, kind: 'consumer', memoryMb: receiveMail.memoryMb, access: receiveMail.access, label: receiveMail.name };
/** The one function that opens integration credentials. */
const TOOL_PROXY = toolProxy.handler;
/** The routes that connect an integration or change its credentials: they check them with the provider, then seal them. */
const CONNECTING_ROUTES = ['functions/integrations/create-integration.ts', 'functions/integrations/update-integration.ts'];

/**
 * Every function bundles only what its declared access lets it call (issue 5): a read-only route
 * that imports a service which also dispatches carries the SQS client; a webhook read that imports
 * the cipher carries KMS; the export that imports the detector carries jsdom. Bundled as CDK does
 * (bench/bundle-contents.ts), in memory, all functions in one esbuild run.
 */
describe('function bundle contents', () => {
  let bundles: BundleContents[];

  beforeAll(async () => {
    bundles = await bundleContents([...benchFunctions(), RECEIVE_MAIL]);
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
      encryptCredentials: '@aws-sdk/client-kms',
      decryptCredentials: '@aws-sdk/client-kms',
      invokeToolProxy: '@aws-sdk/client-lambda',
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

  it('takes node:http with require, never as an ES module: Node 24, as 22, would load undici for its facade at every cold start', () => {
    const esmImports = bundles.flatMap(({ fn, imports }) => imports.filter(({ path, kind, external }) => external && /^(node:)?http$/.test(path) && kind !== 'require-call').map(({ from, kind }) => `${fn.handler}: ${from} (${kind})`));

    expect(bundles.every(({ files }) => files.includes('lib/bundling/node-http-required.ts'))).toBe(true);
    expect(esmImports).toEqual([]);
  });

  it('gives assert, whose stand-in has only `ok` and `equal`, only to importers that call nothing else', () => {
    const importers = new Set(bundles.flatMap(({ imports }) => imports.filter(({ path }) => path === 'lib/bundling/assert-ok.ts' || /^(node:)?assert(\/strict)?$/.test(path)).map(({ from, path }) => `${from} -> ${path}`)));

    // They call `assert.ok(...)`, `assert(...)` or `assert.equal(...)` and nothing else; read a new importer before adding it here.
    expect([...importers].sort()).toEqual([
      'node_modules/cls-hooked/context.js -> lib/bundling/assert-ok.ts',
      'node_modules/follow-redirects/index.js -> lib/bundling/assert-ok.ts',
      'node_modules/https-proxy-agent/dist/index.js -> lib/bundling/assert-ok.ts',
    ]);
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

  it('keeps SES in the tool proxy, SMTP where logins are checked or used, KMS in the cipher’s functions and the table’s, jsdom in the detector worker', () => {
    const holders = (name: string) => bundles.filter(({ packages }) => packages.has(name)).map(({ fn }) => fn.handler).sort();

    // SMTP: checked by the routes that connect an integration, used by the tool proxy; mailparser's address parser.
    expect(holders('nodemailer')).toEqual([...CONNECTING_ROUTES, receiveMail.handler, TOOL_PROXY].sort());
    expect(holders('@aws-sdk/client-sesv2')).toEqual([TOOL_PROXY]);
    expect(holders('jsdom')).toEqual(['functions/workers/run-detector.ts']);
    expect(holders('axe-core')).toEqual(['functions/workers/run-detector.ts']);
    expect(holders('@sparticuz/chromium')).toEqual(['functions/workers/run-detector.ts']);
    // KMS: the cipher's functions, and every function of the table for the page cursor key.
    const cipherFunctions = [...CONNECTING_ROUTES, 'functions/webhooks/create-webhook.ts', 'functions/webhooks/rotate-webhook-secret.ts', 'functions/workers/deliver-webhook.ts', TOOL_PROXY];
    const tableFunctions = bundles.filter(({ fn }) => fn.access.table !== 'none').map(({ fn }) => fn.handler);
    expect(holders('@aws-sdk/client-kms')).toEqual(expect.arrayContaining(cipherFunctions));
    expect(holders('@aws-sdk/client-kms').filter((handler) => !cipherFunctions.includes(handler) && !tableFunctions.includes(handler))).toEqual([]);
  });

  it('keeps the providers’ clients where credentials are in clear: the routes that connect (they check them) and the tool proxy', () => {
    const holders = (pattern: RegExp) => bundles.filter(({ packages }) => [...packages.keys()].some((name) => pattern.test(name))).map(({ fn }) => fn.handler).sort();

    expect(holders(/^@octokit\//)).toEqual([...CONNECTING_ROUTES, TOOL_PROXY].sort());
    expect(holders(/^@slack\//)).toEqual([...CONNECTING_ROUTES, TOOL_PROXY].sort());
  });

  it('gives the Lambda client only to the tool proxy’s callers, and mailparser only to SES receiving’s function', () => {
    const holders = (name: string) => bundles.filter(({ packages }) => packages.has(name)).map(({ fn }) => fn.handler).sort();

    expect(holders('@aws-sdk/client-lambda')).toEqual(['functions/integrations/slack-events.ts', 'functions/integrations/slack-interactions.ts', 'functions/integrations/test-integration.ts', 'functions/tasks/call-task-tool.ts', 'functions/workers/run-task.ts']);
    expect(holders('mailparser')).toEqual([receiveMail.handler]);
    expect(holders('@aws-sdk/client-s3')).toEqual(['functions/scans/export-scan.ts', receiveMail.handler].sort());
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
