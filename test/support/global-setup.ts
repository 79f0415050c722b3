import type { TestProject } from 'vitest/node';
import { startEngines, type Engines } from '#lib/local/engines';

let engines: Engines | undefined;

/** Starts DynamoDB Local and the SQS emulator once; test files provision inside them. */
export async function setup(project: TestProject): Promise<void> {
  engines = await startEngines();
  project.provide('engines', { dynamodb: engines.dynamodb, sqs: engines.sqs });
}

export async function teardown(): Promise<void> {
  await engines?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    engines: { dynamodb: string; sqs: string };
  }
}
