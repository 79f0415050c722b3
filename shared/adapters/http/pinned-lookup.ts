import type { LookupFunction } from 'node:net';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';

/**
 * A `lookup` that answers every query with the address the SSRF guard vetted, so the socket
 * connects exactly there and nothing resolves the name a second time (DNS rebinding). Node calls
 * it with `all: true` when happy-eyeballs is on and without otherwise; both shapes are served.
 */
export function pinnedLookup(target: PinnedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean } | undefined, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
