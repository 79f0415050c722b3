import { describe, expect, it } from 'vitest';
import { packageOf, unneededPackages } from '../../../bench/bundle-contents';
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

  it('lists every function of the route table and topology once', () => {
    const handlers = benchFunctions().map((candidate) => candidate.handler);
    expect(new Set(handlers).size).toBe(handlers.length);
    expect(handlers).toEqual(expect.arrayContaining(['functions/auth/authorize.ts', 'functions/streams/fan-out-events.ts', 'functions/approvals/expire-approval.ts', 'functions/events/stream-events.ts']));
  });
});
