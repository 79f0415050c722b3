import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { packageOf, splitBundle, unneededPackages } from '../../../bench/bundle-contents';
import { benchFunctions } from '../../../bench/functions';

const fn = (handler: string) => benchFunctions().find((candidate) => candidate.handler === handler)!;

describe('bundle contents against declared access', () => {
  it('names the package of a bundled file, scoped or not', () => {
    expect(packageOf('node_modules/@aws-sdk/client-sqs/dist-es/index.js')).toBe('@aws-sdk/client-sqs');
    expect(packageOf('node_modules/jsdom/node_modules/parse5/dist/index.js')).toBe('parse5');
    expect(packageOf('shared/domain/task.ts')).toBeUndefined();
  });

  it('flags packages a function never needs and accepts the ones it does', () => {
    const packages = ['@aws-sdk/client-dynamodb', '@aws-sdk/client-sqs', '@aws-sdk/client-sesv2', 'nodemailer', 'jsdom', 'zod'];

    expect(unneededPackages(fn('functions/tasks/get-task.ts'), packages)).toEqual(['@aws-sdk/client-sesv2', '@aws-sdk/client-sqs', 'jsdom', 'nodemailer']);
    expect(unneededPackages(fn('functions/tasks/create-task.ts'), packages)).toEqual(['@aws-sdk/client-sesv2', 'jsdom', 'nodemailer']);
    expect(unneededPackages(fn('functions/workers/execute-tool-call.ts'), packages)).toEqual(['jsdom']);
    expect(unneededPackages(fn('functions/workers/run-detector.ts'), ['jsdom', 'axe-core', 'pdfkit'])).toEqual(['pdfkit']);
    expect(unneededPackages(fn('functions/scans/export-scan.ts'), ['jsdom', 'axe-core', 'pdfkit', '@aws-sdk/client-s3'])).toEqual(['axe-core', 'jsdom']);
    expect(unneededPackages(fn('functions/workers/restamp-retention.ts'), ['@aws-sdk/client-sqs'])).toEqual([]);
  });

  it('splits a code-split bundle into what importing index.mjs loads and the chunks import() loads later', () => {
    const output = (bytes: number, imports: [string, 'import-statement' | 'dynamic-import'][] = []) => ({ bytes, inputs: {}, imports: imports.map(([path, kind]) => ({ path, kind })), exports: [] });
    const metafile = {
      inputs: {},
      outputs: {
        'out/index.mjs': output(100, [['out/chunk-A.mjs', 'import-statement'], ['out/pdf-B.mjs', 'dynamic-import']]),
        'out/index.mjs.map': output(500),
        'out/chunk-A.mjs': output(20, [['out/chunk-C.mjs', 'import-statement'], ['node:fs', 'import-statement']]),
        'out/chunk-C.mjs': output(3),
        'out/pdf-B.mjs': output(400, [['out/chunk-A.mjs', 'import-statement'], ['out/chunk-D.mjs', 'import-statement']]),
        'out/chunk-D.mjs': output(7),
      },
    } as unknown as Metafile;

    const { initial, lazy } = splitBundle(metafile);

    expect(initial.map((chunk) => chunk.bytes).sort((a, b) => a - b)).toEqual([3, 20, 100]);
    expect(lazy.map((chunk) => chunk.bytes).sort((a, b) => a - b)).toEqual([7, 400]);
  });

  it('lists every function of the route table and topology once', () => {
    const handlers = benchFunctions().map((candidate) => candidate.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
    expect(handlers).toEqual(expect.arrayContaining(['functions/auth/authorize.ts', 'functions/streams/fan-out-events.ts', 'functions/approvals/expire-approval.ts', 'functions/events/stream-events.ts']));
  });
});
