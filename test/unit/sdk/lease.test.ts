import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GatehouseClient } from '../../../sdk/typescript/src/client.ts';
import { GatehouseError } from '../../../sdk/typescript/src/index.ts';
import { holdLease, type LeaseOptions } from '../../../sdk/typescript/src/lease.ts';
import { silentLogger } from '../../../sdk/typescript/src/logger.ts';

/** A lease of 10 s beating every 3 s against a stub client, on fake timers, so the lease's clock is the test's. */
function lease(heartbeat: GatehouseClient['heartbeat']) {
  const onLost = vi.fn();
  const onCancelled = vi.fn();
  const client = { heartbeat: vi.fn(heartbeat) };
  const options: LeaseOptions = {
    client: client as unknown as GatehouseClient,
    taskId: 'tsk_1',
    leaseId: 'lse_1',
    leaseSeconds: 10,
    heartbeatEveryMs: 3_000,
    nextKey: (() => {
      let n = 0;
      return () => `lse_1:${++n}`;
    })(),
    logger: silentLogger,
    onLost,
    onCancelled,
  };
  return { held: holdLease(options), client, onLost, onCancelled };
}

const unavailable = () => Promise.reject(new GatehouseError({ status: 503, code: 'service_unavailable', detail: 'down' }));
const alive = () => Promise.resolve({ lease_expires_at: '2026-01-01T00:00:10Z', cancel_requested: false });

describe('holding a lease', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the lease as lost when it runs out before a heartbeat succeeds', async () => {
    const { client, onLost } = lease(unavailable);

    await vi.advanceTimersByTimeAsync(9_999);
    expect(onLost).not.toHaveBeenCalled();
    expect(client.heartbeat).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);

    expect(onLost).toHaveBeenCalledWith('the lease ran out before a heartbeat succeeded');
  });

  it('keeps the lease as long as heartbeats succeed', async () => {
    const { held, client, onLost } = lease(alive);

    await vi.advanceTimersByTimeAsync(60_000);
    held.stop();

    expect(onLost).not.toHaveBeenCalled();
    expect(client.heartbeat).toHaveBeenCalledTimes(20);
  });

  it('sends no heartbeat beside a call that ends the lease, and resumes them if that call fails', async () => {
    const { held, client } = lease(alive);
    let finishCall: (failure: Error) => void = () => {};

    const call = held.endWith(() => new Promise((_resolve, reject) => (finishCall = reject)));
    await vi.advanceTimersByTimeAsync(6_000);
    expect(client.heartbeat).not.toHaveBeenCalled();
    finishCall(new Error('refused'));
    await expect(call).rejects.toThrow('refused');
    await vi.advanceTimersByTimeAsync(3_000);

    expect(client.heartbeat).toHaveBeenCalledTimes(1);
    held.stop();
  });

  it('sends nothing more once stopped', async () => {
    const { held, client, onLost } = lease(alive);

    held.stop();
    await vi.advanceTimersByTimeAsync(30_000);

    expect(client.heartbeat).not.toHaveBeenCalled();
    expect(onLost).not.toHaveBeenCalled();
  });
});
