import type { RouteMiddleware } from '#shared/http/route-middleware';
import { createHash } from 'node:crypto';
import { idempotencyRepository, type IdempotencyScope } from '#shared/adapters/dynamodb/idempotency-repository';
import { ConflictError, InvalidRequestError } from '#shared/domain/errors';
import { header, type RouteInternal } from '#shared/http/request-context';

/** Serialises JSON with sorted keys, so that the same body in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface IdempotencyOptions {
  /**
   * Top-level fields of a JSON answer that are shown once and never stored: a replay answers
   * without them (a new API key's `key`), so the secret exists nowhere but in the first answer.
   */
  secretFields?: readonly string[];
}

/** The answer's body without the secret fields, as it is kept for replays. */
function withoutSecrets(body: string, secretFields: readonly string[]): string {
  if (secretFields.length === 0) return body;
  const parsed = JSON.parse(body) as Record<string, unknown>;
  for (const field of secretFields) delete parsed[field];
  return JSON.stringify(parsed);
}

/** The tenant and principal whose keys a request's key is one of: another principal's key never replays. */
function scopeOf(internal: RouteInternal): IdempotencyScope {
  return { tenantId: internal.tenantId!, principalId: internal.caller!.principal.id };
}

/**
 * `Idempotency-Key` on POSTs (decisions.md): a retry with the same key and body within 24 h gets
 * the first response and creates nothing (keys are the sending principal's own: another key or
 * person of the tenant reusing one runs its own request); the same key with another body, or while the first
 * request is still running, gets 409. Failed requests release the key so that a retry can run.
 */
export function idempotency(options: IdempotencyOptions = {}): RouteMiddleware {
  return {
    before: async (request) => {
      const key = header(request.event, 'idempotency-key');
      if (key === undefined || request.event.httpMethod !== 'POST') return;
      if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
        throw new InvalidRequestError('The Idempotency-Key header must be 1 to 255 visible ASCII characters.', [{ path: 'headers.idempotency-key', message: 'invalid' }], 'invalid_idempotency_key');
      }
      const fingerprint = createHash('sha256')
        .update(`${request.event.httpMethod} ${request.event.resource}\n${JSON.stringify(request.event.pathParameters ?? {})}\n${canonicalJson(request.internal.body)}`)
        .digest('hex');
      const outcome = await idempotencyRepository.claim(scopeOf(request.internal), key, fingerprint, Math.floor(Date.now() / 1000));
      if (outcome.claimed) {
        request.internal.idempotencyKey = key;
        return;
      }
      const { record } = outcome;
      if (record.fingerprint !== fingerprint) {
        throw new ConflictError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
      }
      if (record.state !== 'done' || !record.response) {
        throw new ConflictError('idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
      }
      return { ...record.response, headers: { ...record.response.headers, 'Idempotent-Replayed': 'true' } };
    },
    after: async (request) => {
      const key = request.internal.idempotencyKey;
      if (!key || !request.response) return;
      const { statusCode, headers, body } = request.response;
      const stored = statusCode < 300 ? withoutSecrets(body, options.secretFields ?? []) : body;
      await idempotencyRepository.complete(scopeOf(request.internal), key, { statusCode, headers: (headers ?? {}) as Record<string, string>, body: stored });
    },
    onError: async (request) => {
      const key = request.internal.idempotencyKey;
      if (key) await idempotencyRepository.release(scopeOf(request.internal), key).catch(() => undefined);
    },
  };
}
