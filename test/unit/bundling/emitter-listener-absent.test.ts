import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import wrapEmitter from '#lib/bundling/emitter-listener-absent';

describe('the emitter-listener stand-in of function bundles', () => {
  it('throws, naming the stand-in, if anything binds an emitter to an X-Ray context', () => {
    expect(() => (wrapEmitter as (...args: unknown[]) => never)(new EventEmitter(), () => {}, () => {})).toThrow(/emitter-listener is not bundled .*emitter-listener-absent\.ts/);
  });
});
