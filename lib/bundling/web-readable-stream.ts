/**
 * Stands in for `node:stream/web` inside function bundles (an esbuild alias, see ./aliases.ts).
 * Its one importer, middy's core, imports `ReadableStream` at load for one `instanceof` test in its
 * response-streaming path, which only a streaming function reaches; the import alone makes Node
 * load and evaluate its web streams (and what they bring: `timers/promises`, worker message
 * ports) at every cold start. The test here asks Node's own class, which Node loads on first access
 * of the global; a primitive (the string body of a streaming error response) is never an instance,
 * so it is answered without loading them.
 */
export class ReadableStream {
  // A bundled module that builds streams from this import would otherwise get a dead object.
  constructor() {
    throw new Error('node:stream/web is replaced in function bundles (lib/bundling/web-readable-stream.ts) for an instanceof test only; build streams with globalThis.ReadableStream');
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && value instanceof globalThis.ReadableStream;
  }
}
