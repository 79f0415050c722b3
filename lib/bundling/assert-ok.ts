import { createRequire } from 'node:module';
import type NodeAssert from 'node:assert';

/**
 * Stands in for `assert` inside function bundles (an esbuild alias, see ./aliases.ts). Its
 * importers there check invariants with `assert.ok(value, message)` or `assert(value)`: cls-hooked,
 * the X-Ray SDK's context, in every function, and jsdom's https-proxy-agent in the detector worker;
 * follow-redirects (@sparticuz/chromium's downloader, in the detector worker) also `assert.equal`s
 * (test/infra/bundle-contents.test.ts keeps that list). Node's `assert` loads its diff, call
 * tracker and colouring modules when required, at every cold start (docs/benchmarks.md), for
 * checks that pass. Here a passing check costs a test; a failing one is
 * handed to Node's own `assert.ok`, loaded then, so that it throws the AssertionError it would have.
 */
export function ok(value: unknown, message?: string | Error): asserts value {
  if (value) return;
  const node: typeof NodeAssert = nodeAssert();
  node.ok(value, message);
}

function nodeAssert(): typeof NodeAssert {
  return createRequire(import.meta.url)('node:assert');
}

/** `assert.equal`, Node's own, loaded on first call. */
export function equal(actual: unknown, expected: unknown, message?: string | Error): void {
  nodeAssert().equal(actual, expected, message);
}

export default Object.assign(ok, { ok, equal });
