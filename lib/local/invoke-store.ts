import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Lambda's per-invocation store, played locally. The local runtime runs many invocations of the
 * same function at once in one process, as Lambda does with several concurrent requests per
 * execution environment; Powertools (logger context, metrics buffer, batch processor state)
 * keeps its per-invocation state in `awslambda.InvokeStore` when AWS_LAMBDA_MAX_CONCURRENCY is
 * set, instead of in one shared field. Outside any invocation (runtime start-up, test code) the
 * store falls back to one shared object, which is what Powertools does without concurrency.
 */
class LocalInvokeStore {
  readonly #storage = new AsyncLocalStorage<Record<PropertyKey, unknown>>();
  readonly #outside: Record<PropertyKey, unknown> = {};

  #current(): Record<PropertyKey, unknown> {
    return this.#storage.getStore() ?? this.#outside;
  }

  get(key: PropertyKey): unknown {
    return this.#current()[key];
  }

  set(key: PropertyKey, value: unknown): void {
    this.#current()[key] = value;
  }

  run<T>(context: Record<PropertyKey, unknown>, fn: () => T): T {
    return this.#storage.run(context, fn);
  }

  hasContext(): boolean {
    return this.#storage.getStore() !== undefined;
  }

  getContext(): Record<PropertyKey, unknown> | undefined {
    return this.#storage.getStore();
  }

  getRequestId(): string {
    return (this.get(Symbol.for('_AWS_LAMBDA_REQUEST_ID')) as string | undefined) ?? '-';
  }

  getXRayTraceId(): string | undefined {
    return undefined;
  }

  getTenantId(): string | undefined {
    return undefined;
  }
}

const store = new LocalInvokeStore();

/** Installs the store on the `awslambda` global, once, and tells Powertools invocations overlap. */
export function installInvokeStore(): void {
  const global = globalThis as { awslambda?: Record<string, unknown> };
  global.awslambda ??= {};
  if (!(global.awslambda.InvokeStore instanceof LocalInvokeStore)) global.awslambda.InvokeStore = store;
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';
}

/** Runs one invocation in its own store, as Lambda's runtime does for each request. */
export function runInvocation<T>(requestId: string, fn: () => T): T {
  return store.run({ [Symbol.for('_AWS_LAMBDA_REQUEST_ID')]: requestId }, fn);
}
