import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ReadableStream as StandIn } from '#lib/bundling/web-readable-stream';

describe('the node:stream/web stand-in of function bundles', () => {
  it('answers instanceof as Node’s ReadableStream does: middy streams what is one', () => {
    expect(new globalThis.ReadableStream() instanceof StandIn).toBe(true);
  });

  it('answers no for what is not one: a Node stream, a string body, nothing', () => {
    for (const value of [Readable.from(['a']), 'event: ping\n\n', undefined, null, {}]) expect(value instanceof StandIn, String(value)).toBe(false);
  });

  it('refuses to build a stream: a module that would is told so instead of getting a dead object', () => {
    expect(() => new StandIn()).toThrow(/globalThis.ReadableStream/);
  });
});
