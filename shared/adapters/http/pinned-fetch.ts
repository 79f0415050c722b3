import { Agent, fetch as undiciFetch } from 'undici';
import { pinnedLookup } from '#shared/adapters/http/pinned-lookup';
import type { PinnedTarget } from '#shared/adapters/http/ssrf-guard';

/**
 * A WHATWG `fetch` whose every connection goes to the vetted address (undici with a pinned
 * lookup): for clients that take a fetch (Octokit, Slack's WebClient), so a name that changes its
 * DNS answer after the SSRF check (rebinding) cannot redirect them. TLS still checks the host name.
 */
export function pinnedFetch(pin: PinnedTarget): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: pinnedLookup(pin) } });
  return ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
}
