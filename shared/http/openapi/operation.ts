import type * as z from '#shared/zod';
import type { RouteSchemas } from '#shared/http/request-validation';

/** A success answer: a named schema of the document's components, a list of one, or another media type. */
export interface SuccessResponse {
  description: string;
  /** A key of the document's `components.schemas` (shared/http/openapi/components.ts). */
  schema?: string;
  /** Media types other than JSON (exports, CSV, the event stream), beside `schema`'s JSON or alone; their bodies are not JSON-validated. */
  media?: string[];
  /** No body (204, 303). */
  empty?: boolean;
}

/** What the OpenAPI document says about one route beyond the route table: one entry per route. */
export interface OperationSpec {
  summary: string;
  /** The same schema objects the route's handler validates with (test/unit/openapi checks it). */
  request: RouteSchemas<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;
  responses: Record<number, SuccessResponse>;
  /** A request body the route accepts, shown as the request example. */
  example?: Record<string, unknown>;
  /** Error statuses beyond those the route's shape implies (shared/http/openapi/error-statuses.ts). */
  errors?: number[];
}
