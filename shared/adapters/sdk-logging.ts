/**
 * Takes the AWS SDK's logger middleware off a client. Our clients are given no `logger`, so the
 * SDK logs nothing, yet that middleware still builds the redacted copy of every call's input and
 * output it would log (a walk of the command's schema over the whole payload, a whole Query page
 * included) before handing it to the no-op logger, a visible share of the CPU under load
 * (docs/benchmarks.md). Calls and their errors are unchanged; the SDK's own logging is what goes.
 */
export function withoutSdkLogger<T extends { middlewareStack: { remove(toRemove: string): boolean } }>(client: T): T {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
