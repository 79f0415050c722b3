import { describe, expect, it } from 'vitest';
import { createWorker } from '../../../sdk/typescript/src/index.ts';

const valid = { agent: 'invoice-checker', apiKey: 'key', baseUrl: 'http://127.0.0.1:3000/v1', handlers: { 'invoice.check': async () => {} }, logger: false as const };

describe('createWorker options', () => {
  it('accepts the required options alone', () => {
    expect(() => createWorker(valid)).not.toThrow();
  });

  it('refuses what the protocol would refuse, naming every problem at once', () => {
    expect(() => createWorker({ ...valid, leaseSeconds: 5, waitSeconds: 30, concurrency: 0 })).toThrow(
      'createWorker: concurrency must be an integer of 1 or more; leaseSeconds must be an integer from 10 to 900; waitSeconds must be an integer from 0 to 20',
    );
  });

  it('refuses options that would make it useless or a busy loop', () => {
    expect(() => createWorker({ ...valid, handlers: {} })).toThrow('handlers must name at least one task type');
    expect(() => createWorker({ ...valid, baseUrl: 'localhost:3000' })).toThrow("baseUrl 'localhost:3000' is not an http(s) URL");
    expect(() => createWorker({ ...valid, heartbeatEveryMs: 60_000 })).toThrow('heartbeatEveryMs must be above 0 and below the lease');
    expect(() => createWorker({ ...valid, retry: { baseMs: 0 } })).toThrow('retry.baseMs must be above 0');
  });
});
