import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import assert, { ok } from '#lib/bundling/assert-ok';

describe('the assert stand-in of function bundles', () => {
  it('passes a truthy value, as `assert.ok` and as `assert(...)`', () => {
    expect(() => ok(1, 'never thrown')).not.toThrow();
    expect(() => assert('x')).not.toThrow();
  });

  it('throws Node’s own AssertionError, with the message, for a falsy one', () => {
    expect(() => ok(0, 'context must be provided for entering')).toThrow(AssertionError);
    expect(() => ok(undefined, 'context must be provided for entering')).toThrow('context must be provided for entering');
    expect(() => assert(null)).toThrow(AssertionError);
  });
});
