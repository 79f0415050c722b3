import type { RouteDefinition } from '#functions/routes';
import { API_VERSION } from '#shared/http/api-version';
import type { OperationSpec, SuccessResponse } from '#shared/http/openapi/operation';
import { componentSchemas, requestSchema, type JsonSchema } from '#shared/http/openapi/json-schema';
import { errorStatuses } from '#shared/http/openapi/error-statuses';
import { problemExample } from '#shared/http/openapi/problem-examples';
import { STATUS_TITLES } from '#shared/http/problem';
import type * as z from '#shared/zod';

const PROBLEM = { $ref: '#/components/schemas/Problem' };

/** `GET /tasks/{task_id}/cancel` → `getTasksByTaskIdCancel`: stable, unique per method and path. */
export function operationId(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by_${segment.slice(1, -1)}` : segment));
  const camel = words.join('_').replace(/[^a-zA-Z0-9]+(.)/g, (_, letter: string) => letter.toUpperCase());
  return route.method.toLowerCase() + camel.charAt(0).toUpperCase() + camel.slice(1);
}

function parameters(part: 'path' | 'query' | 'header', schema: z.ZodType | undefined): JsonSchema[] {
  if (!schema) return [];
  const json = requestSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({ name, in: part, required: part === 'path' || (json.required ?? []).includes(name), schema: property }));
}

function requestBody(operation: OperationSpec): JsonSchema | undefined {
  if (!operation.request.body) return undefined;
  const schema = requestSchema(operation.request.body);
  const examples = operation.example ? { example: { summary: 'A valid request', value: operation.example } } : undefined;
  return { required: !('default' in schema), content: { 'application/json': { schema, ...(examples ? { examples } : {}) } } };
}

function success(response: SuccessResponse): JsonSchema {
  if (response.empty) return { description: response.description };
  // A named schema is the JSON answer; other media types (exports, CSV, the stream) beside it carry no schema.
  const json = response.schema || !response.media ? { 'application/json': { schema: response.schema ? { $ref: `#/components/schemas/${response.schema}` } : {} } } : {};
  return { description: response.description, content: { ...json, ...Object.fromEntries((response.media ?? []).filter((type) => !(type in json)).map((type) => [type, {}])) } };
}

function problem(status: number): JsonSchema {
  return { description: STATUS_TITLES[status] ?? 'Error', content: { 'application/problem+json': { schema: PROBLEM, examples: { problem: { value: problemExample(status) } } } } };
}

/** An operation without an entry of its own still appears (so the document is never short of a route); the tests fail on it. */
function placeholder(route: RouteDefinition): OperationSpec {
  return { summary: `${route.method} ${route.path}`, request: {}, responses: { 200: { description: 'Undocumented answer' } } };
}

function operationOf(route: RouteDefinition, spec: OperationSpec | undefined): JsonSchema {
  const operation = spec ?? placeholder(route);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(operation.responses)) responses[status] = success(response);
  for (const status of errorStatuses(route, spec)) responses[String(status)] = problem(status);
  const body = requestBody(operation);
  return {
    operationId: operationId(route),
    summary: operation.summary,
    // The route table's least role (docs/api.md#roles), in words and for tools.
    ...(route.role ? { description: `Needs the role \`${route.role}\` or one that covers it.`, 'x-gatehouse-role': route.role } : {}),
    tags: [route.path.split('/')[1]],
    security: route.auth === 'none' ? [] : [{ apiKey: [] }],
    parameters: [...parameters('path', operation.request.params), ...parameters('query', operation.request.query), ...parameters('header', operation.request.headers)],
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of `routes`, described by `operations` (keyed `METHOD /path`) and the named response schemas. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], operations: Record<string, OperationSpec>, responseSchemas: Record<string, z.ZodType>): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= route.unversioned ? { servers: [{ url: '/', description: 'Served at the root, outside the versioned API' }] } : {});
    item[route.method.toLowerCase()] = operationOf(route, operations[`${route.method} ${route.path}`]);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse API',
      version: API_VERSION,
      description: 'Tasks, agents, approvals, webhooks, scans and events. Errors are RFC 9457 problem+json; `GET /v1/problems` lists every code.',
    },
    servers: [{ url: `/${API_VERSION}` }],
    security: [{ apiKey: [] }],
    tags: [...new Set(routes.map((route) => route.path.split('/')[1]))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, or a signed-in person’s OpenID Connect access token: `Authorization: Bearer <token>`.' } },
      schemas: componentSchemas(responseSchemas),
    },
  };
}
