import { createRequire } from 'node:module';
import type NodeAssert from 'node:assert';

/**
 * Stands in for `assert` inside function bundles (an esbuild alias, see ./aliases.ts). Its
 * importers there check invariants with `assert.ok(value, message)` or `assert(value)`: cls-hooked,
 * the X-Ray SDK's context, in every function, and jsdom's https-proxy-agent in the detector worker
 * (test/infra/bundle-contents.test.ts keeps that list). Node's `assert` loads its diff, call
 * tracker and colouring modules when required, at every cold start (docs/benchmarks.md), for
 * checks that pass. Here a passing check costs a test; a failing one is
 * handed to Node's own `assert.ok`, loaded then, so that it throws the AssertionError it would have.
 */
export function ok(value: unknown, message?: string | Error): asserts value {
  if (value) return;
  const nodeAssert: typeof NodeAssert = createRequire(import.meta.url)('node:assert');
  nodeAssert.ok(value, message);
}

export default ok;
