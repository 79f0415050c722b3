import { AsyncLocalStorage } from 'node:async_hooks';

/** Identifiers that every log line of one piece of work carries (`tenant_id`, `task_id`, ...). */
export type LogFields = Record<string, string | number | boolean | undefined>;

/**
 * Per-invocation and per-record log fields, kept in async-local storage rather than in the
 * logger's own keys: a batch consumer works on several records at once, and the local runtime
 * runs many invocations in one process, so "the current task" is a property of the async call
 * chain, not of the process.
 */
const storage = new AsyncLocalStorage<LogFields>();

function defined(fields: LogFields): LogFields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''));
}

/** Runs `fn` with these fields (on top of the enclosing ones) on every log line it causes. */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...defined(fields) }, fn);
}

/**
 * Runs `fn` with `fields` itself as the context: ids added on the way (`addLogContext`) land in
 * this object, so the caller can still read them once `fn` is done (the access line does).
 */
export function runInLogContext<T>(fields: LogFields, fn: () => T): T {
  return storage.run(fields, fn);
}

/** Adds fields to the current context, for ids learnt on the way (the task a request created). */
export function addLogContext(fields: LogFields): void {
  const store = storage.getStore();
  if (store) Object.assign(store, defined(fields));
}

/** The fields of the current context (empty outside any). */
export function currentLogContext(): Readonly<LogFields> {
  return storage.getStore() ?? {};
}

/** The correlation id of the work in progress, for messages that carry it to the next function. */
export function currentCorrelationId(): string | undefined {
  const value = storage.getStore()?.correlation_id;
  return typeof value === 'string' ? value : undefined;
}
