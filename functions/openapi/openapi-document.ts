import { routes } from '#functions/routes';
import { operations } from '#functions/openapi/operations';
import { buildOpenApiDocument } from '#shared/http/openapi/build-document';
import { responseComponents } from '#shared/http/openapi/components';

let built: Record<string, unknown> | undefined;

/** The API's OpenAPI document, built on first use and kept for the process's life. */
export function openApiDocument(): Record<string, unknown> {
  built ??= buildOpenApiDocument(routes, operations, responseComponents());
  return built;
}
