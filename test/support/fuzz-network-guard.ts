import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';

/**
 * Keeps a test file's process off the internet: every name lookup (`dns.lookup`, which sockets,
 * fetch and the SSRF guard's `dns/promises` use) of anything but `localhost` fails as an unknown
 * name, and the name is recorded. Requests generated from schemas can name a provider the test did
 * not start (an integration without `settings.api_url` means the real api.github.com); with the
 * guard such a request gets the service's "unreachable" answer instead of a call to GitHub, and
 * the test asserts that `refused` stayed empty, so the slip shows. IP literals pass (they resolve
 * to themselves, without DNS; which addresses are allowed is the SSRF guard's business).
 */
export interface NetworkGuard {
  /** Names something tried to resolve, in order. */
  readonly refused: string[];
  restore(): void;
}

const LOCAL_NAME = /^(localhost|[a-z0-9-]+\.localhost)\.?$/i;
const passes = (hostname: string) => isIP(hostname) !== 0 || LOCAL_NAME.test(hostname);

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (test/support/fuzz-network-guard.ts: tests stay on loopback)`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });
}

/** Installs the guard for this process (test files run in processes of their own); `restore` removes it. */
export function guardNetwork(): NetworkGuard {
  const refused: string[] = [];
  const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };

  const lookup = function (hostname: string, options: unknown, callback?: unknown) {
    if (passes(hostname)) return (original.lookup as (...args: unknown[]) => void).call(dns, hostname, options, callback);
    refused.push(hostname);
    const done = (typeof options === 'function' ? options : callback) as (error: Error) => void;
    process.nextTick(done, notFound(hostname));
  };
  const promisesLookup = async (hostname: string, options?: unknown) => {
    if (passes(hostname)) return (original.promisesLookup as (...args: unknown[]) => Promise<unknown>).call(dns.promises, hostname, options);
    refused.push(hostname);
    throw notFound(hostname);
  };

  Object.assign(dns, { lookup });
  Object.assign(dns.promises, { lookup: promisesLookup });
  // `import { lookup } from 'node:dns/promises'` binds the export, which follows the module object only once synced.
  syncBuiltinESMExports();
  return {
    refused,
    restore() {
      Object.assign(dns, { lookup: original.lookup });
      Object.assign(dns.promises, { lookup: original.promisesLookup });
      syncBuiltinESMExports();
    },
  };
}
