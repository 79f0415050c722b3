import { getIntegerFromEnv } from '#shared/config/env';
import { UnauthorizedError } from '#shared/domain/errors';
import type { Caller, Role } from '#shared/domain/roles';
import { mapErrorToResponse } from '#shared/http/error-mapper';
import { assertRole } from '#shared/http/role-check';
import { authenticate } from '#shared/services/authentication';
import type { CallerRecheck } from '#shared/streaming/event-stream';

/** The longest an open stream goes on without checking its caller again (issue 25: revocation is immediate). */
export const MAX_STREAM_RECHECK_SECONDS = 30;

/**
 * How often a stream checks its caller again: STREAM_RECHECK_SECONDS (tests shorten it), at most
 * 30 s whatever it says, so a revoked key or a removed person reads nothing for longer than that.
 */
export function streamRecheckMs(): number {
  const seconds = getIntegerFromEnv('STREAM_RECHECK_SECONDS', MAX_STREAM_RECHECK_SECONDS);
  return Math.min(Math.max(seconds, 1), MAX_STREAM_RECHECK_SECONDS) * 1000;
}

/**
 * Checks a stream's caller again the way the authorizer checked it when the stream opened: the
 * same `authenticate()` on the same Authorization header (an API key revoked, expired or capped,
 * a person's token expired or their membership gone), then the route's least role. Still the same
 * principal of the same tenant, still allowed: undefined. Otherwise the problem+json body that
 * ends the stream: 401 for a credential no longer valid, 403 for a role that no longer allows the
 * route, 503 when the check itself cannot run (the stream closes; the client reconnects).
 */
export function callerRecheck(authorization: string | undefined, opened: Caller, required: Role): CallerRecheck {
  return async () => {
    try {
      const caller = await authenticate(authorization);
      if (caller.tenantId !== opened.tenantId || caller.principal.type !== opened.principal.type || caller.principal.id !== opened.principal.id) {
        throw new UnauthorizedError('The credential of this stream no longer names the caller it was opened for.');
      }
      assertRole(caller, required);
      return undefined;
    } catch (error) {
      return JSON.parse(mapErrorToResponse(error).body) as object;
    }
  };
}
