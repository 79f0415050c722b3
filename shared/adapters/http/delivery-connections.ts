import http from 'node:http';
import https from 'node:https';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';

/**
 * Kept-alive connections for webhook deliveries, so that a busy receiver costs one TCP (and TLS)
 * handshake per idle spell instead of one per delivery.
 *
 * One pool per (scheme, host name, vetted address, port): a connection is only ever reused for the
 * address it was opened to, which the SSRF guard vetted, and never for another name that happens
 * to resolve there (its TLS session belongs to its name). A name that resolves elsewhere later
 * gets a pool of its own; the old one's idle connections close by themselves.
 */

/**
 * An idle connection is closed after this long: below the 5 s keep-alive of Node's and many other
 * servers, so that we rarely pick one the receiver is closing (that race is retried on a fresh
 * connection, see deliver-webhook.ts). A receiver's `Keep-Alive: timeout=` hint shortens it.
 */
const IDLE_CONNECTION_MS = 4_000;
/** Idle connections kept per pool; more are closed as their responses end. */
const IDLE_CONNECTIONS_PER_POOL = 16;
/**
 * Pools kept per process, least recently used first out: with the per-pool cap, a bound on idle
 * sockets well under Lambda's 1,024 file descriptors.
 */
const MAX_POOLS = 32;

const pools = new Map<string, http.Agent>();

/** A pool's name; `|` appears in none of its parts (IPv6 addresses have colons, not bars). */
export function poolKey(target: PinnedTarget): string {
  return [target.url.protocol, target.hostname, target.address, target.url.port].join('|');
}

/** The pool for this target's connections, created on first use. */
export function connectionPool(target: PinnedTarget): http.Agent {
  const key = poolKey(target);
  const found = pools.get(key);
  if (found) {
    // Most recently used last, so that eviction takes the stalest.
    pools.delete(key);
    pools.set(key, found);
    return found;
  }
  const options = { keepAlive: true, maxFreeSockets: IDLE_CONNECTIONS_PER_POOL, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
  const pool = target.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  pools.set(key, pool);
  if (pools.size > MAX_POOLS) evict(pools.keys().next().value as string);
  return pool;
}

/** Closes an evicted pool's idle connections; those in use finish their delivery and close when idle. */
function evict(key: string): void {
  const pool = pools.get(key)!;
  pools.delete(key);
  for (const sockets of Object.values(pool.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}
