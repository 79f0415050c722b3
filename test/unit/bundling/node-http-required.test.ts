import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';

const require = createRequire(import.meta.url);

describe('the node:http stand-in of function bundles', () => {
  it('is the module require returns, read without touching its other getters', async () => {
    const http = require('node:http') as Record<string, unknown>;
    // Node 22's and 24's WebSocket, CloseEvent and MessageEvent getters load undici; this one stands for them.
    const lazyGetter = vi.fn(() => 'loaded');
    Object.defineProperty(http, 'LazyGatehouseProbe', { get: lazyGetter, configurable: true });
    try {
      const standIn = await import('#lib/bundling/node-http-required');

      expect(standIn.default).toBe(http);
      expect(standIn.request).toBe(http.request);
      expect(standIn.Agent).toBe(http.Agent);
      expect(standIn.STATUS_CODES).toBe(http.STATUS_CODES);
      expect(lazyGetter).not.toHaveBeenCalled();
    } finally {
      delete http.LazyGatehouseProbe;
    }
  });

  it('hands out the module object the tracer patches, so calls through it see the patch', async () => {
    const http = require('node:http') as { request: unknown };
    const standIn = await import('#lib/bundling/node-http-required');
    const original = http.request;
    const patched = () => undefined;
    http.request = patched;
    try {
      expect(standIn.default.request).toBe(patched);
    } finally {
      http.request = original;
    }
  });
});
