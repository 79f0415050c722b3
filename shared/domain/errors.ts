/**
 * Typed domain errors. Domain code throws these; one mapper at the HTTP edge turns them into
 * problem+json responses, so no domain module knows about status codes.
 */
export interface FieldError {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: 'invalid' | 'not_found' | 'conflict' | 'unauthorized' | 'forbidden' | 'too_large' | 'uri_too_long' | 'unsupported_media_type' | 'rate_limited' | 'unavailable';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request breaks the documented shape. */
export class InvalidRequestError extends DomainError {
  readonly kind = 'invalid';
  constructor(message: string, readonly errors: FieldError[] = [], code = 'validation_error') {
    super(code, message);
  }
}

/** Unknown identifier, or one that belongs to another tenant (answered identically). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(resource: string, id: string) {
    super(`${resource}_not_found`, `No ${resource.replace(/_/g, ' ')} with id '${id}' exists.`);
  }
}

/** A transition the state machine forbids, or a clash with existing state. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized';
  constructor(message = 'A valid API key or access token is required: send `Authorization: Bearer <token>`.') {
    super('unauthorized', message);
  }
}

/** The caller is authenticated but its role does not cover the action. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'too_large';
  constructor(limitBytes: number) {
    super('payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
  }
}

/** A write that would take a budget of stored bytes past its limit (a task's artifacts). */
export class ArtifactTooLargeError extends DomainError {
  readonly kind = 'too_large';
  constructor(message: string) {
    super('artifact_too_large', message);
  }
}

/** A query string or path longer than the service accepts (shared/config/limits.ts). */
export class UriTooLongError extends DomainError {
  readonly kind = 'uri_too_long';
  constructor(message: string) {
    super('uri_too_long', message);
  }
}

/** The tenant spent its request budget; `retryAfterSeconds` says when the next request fits. */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Too many requests for this tenant. Retry after ${retryAfterSeconds} s.`);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly kind = 'unsupported_media_type';
  constructor() {
    super('unsupported_media_type', 'Request bodies must be JSON: send `Content-Type: application/json`.');
  }
}

/** A dependency (the database, the queue) did not answer; the client may retry. */
export class ServiceUnavailableError extends DomainError {
  readonly kind = 'unavailable';
  constructor(message = 'The service is temporarily unable to handle the request. Retry shortly.') {
    super('service_unavailable', message);
  }
}
