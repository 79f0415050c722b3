import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { runInvocation } from '#lib/local/invoke-store';

/** Repository root, so that route and consumer handler paths resolve as in the CDK stack. */
export const repositoryRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LambdaHandler = (event: any, context: any) => Promise<any>;

const loaded = new Map<string, Promise<LambdaHandler>>();

/** One finished handler invocation, as the benchmark meters it (Lambda bills per invocation and ms). */
export interface HandlerInvocation {
  /** Handler file, relative to the repository root: identifies the function. */
  file: string;
  durationMs: number;
  failed: boolean;
}

export type InvocationObserver = (invocation: HandlerInvocation) => void;

let observer: InvocationObserver | undefined;
const invocationScope = new AsyncLocalStorage<string>();

/**
 * Lets the benchmark see every handler invocation of this process (one observer at a time;
 * `undefined` removes it). Without one, handlers run exactly as loaded.
 */
export function observeInvocations(next: InvocationObserver | undefined): void {
  observer = next;
}

/** The handler file whose invocation the caller runs inside, if any: attributes AWS calls to functions. */
export function currentInvocation(): string | undefined {
  return invocationScope.getStore();
}

function observed(file: string, handler: LambdaHandler): LambdaHandler {
  // Streaming handlers take a third argument (the response stream): pass through whatever comes.
  const call = handler as (...args: unknown[]) => Promise<unknown>;
  const wrapped = async (...args: unknown[]) => {
    const watching = observer;
    if (!watching) return call(...args);
    const started = performance.now();
    let failed = false;
    try {
      return await invocationScope.run(file, () => call(...args));
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      watching({ file, durationMs: performance.now() - started, failed });
    }
  };
  // Keeps markers the runtime reads off the handler (response streaming's symbol).
  return Object.assign(wrapped, handler);
}

/**
 * Each call in its own invocation store, as Lambda's runtime runs each request. The context is
 * the last argument (streaming handlers take the response stream before it); the wrapper keeps
 * the handler's own properties, such as the streaming marker.
 */
function perInvocation(handler: LambdaHandler): LambdaHandler {
  const wrapped = (...args: unknown[]) => runInvocation((args.at(-1) as { awsRequestId?: string } | undefined)?.awsRequestId ?? '-', () => (handler as (...all: unknown[]) => Promise<unknown>)(...args));
  return Object.assign(wrapped, handler) as LambdaHandler;
}

/** Imports a handler file's `handler` export once, as Lambda would load the function's bundle. */
export function loadHandler(file: string): Promise<LambdaHandler> {
  let handler = loaded.get(file);
  if (!handler) {
    handler = import(pathToFileURL(resolve(repositoryRoot, file)).href).then((module: { handler?: LambdaHandler }) => {
      if (typeof module.handler !== 'function') throw new Error(`${file} does not export a handler.`);
      return observed(file, perInvocation(module.handler));
    });
    loaded.set(file, handler);
  }
  return handler;
}

let invocation = 0;

/** A Lambda context object good enough for our handlers and middy. */
export function lambdaContext(functionName: string, timeoutSeconds: number) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  invocation += 1;
  return {
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: `local-${process.pid}-${invocation}-${Date.now()}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
