import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { operations } from '#functions/openapi/operations';
import { openApiDocument } from '#functions/openapi/openapi-document';

type Operation = { security: unknown[]; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>; requestBody?: { content: Record<string, { examples?: object }> } };
const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
const operationOf = (route: { method: string; path: string }) => doc.paths[route.path]?.[route.method.toLowerCase()];
const label = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('GET /v1/openapi.json document', () => {
  it('is a valid OpenAPI 3.1 document for a third-party validator', async () => {
    const result = await new Validator().validate(doc as never);

    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route of the route table, and nothing else', () => {
    const missing = routes.filter((route) => !operationOf(route)).map(label);
    const listed = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => key !== 'servers').map((method) => `${method.toUpperCase()} ${path}`));

    expect(missing).toEqual([]);
    expect(listed.sort()).toEqual(routes.map(label).sort());
  });

  it('describes every route in functions/openapi/operations.ts, with a response schema for its success', () => {
    const undescribed = routes.filter((route) => !operations[label(route)]).map((route) => `${label(route)}: add it to functions/openapi/operations.ts`);
    const stale = Object.keys(operations).filter((key) => !routes.some((route) => label(route) === key));
    const withoutSchema = routes
      .filter((route) => operations[label(route)])
      .flatMap((route) => Object.entries(operations[label(route)].responses).filter(([, response]) => !response.empty && !response.media && !response.schema).map(([status]) => `${label(route)} ${status}`));

    expect(undescribed).toEqual([]);
    expect(stale).toEqual([]);
    expect(withoutSchema).toEqual([]);
  });

  it('asks for the API key on every authenticated route and on no public one', () => {
    const wrong = routes.filter((route) => (route.auth === 'none' ? operationOf(route)?.security.length !== 0 : JSON.stringify(operationOf(route)?.security) !== '[{"apiKey":[]}]')).map(label);

    expect(wrong).toEqual([]);
  });

  it('declares problem+json errors, with an example, on every operation, and 401 wherever a key is needed', () => {
    const without = routes.filter((route) => {
      const errors = Object.entries(operationOf(route)?.responses ?? {}).filter(([status]) => Number(status) >= 400);
      return errors.length === 0 || errors.some(([, response]) => response.content?.['application/problem+json']?.schema?.$ref !== '#/components/schemas/Problem');
    });
    const no401 = routes.filter((route) => route.auth !== 'none' && !operationOf(route)?.responses['401']);

    expect(without.map(label)).toEqual([]);
    expect(no401.map(label)).toEqual([]);
    expect(JSON.stringify(doc)).toContain('"application/problem+json":{"schema":{"$ref":"#/components/schemas/Problem"},"examples"');
  });

  it('shows a request example for every operation that takes a body', () => {
    const without = routes.filter((route) => operationOf(route)?.requestBody && !operationOf(route)?.requestBody?.content['application/json'].examples).map(label);

    expect(without).toEqual([]);
  });

  it('resolves every $ref to a component', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]);

    expect(refs.filter((name) => !(name in doc.components.schemas))).toEqual([]);
  });
});

describe('roles in the OpenAPI document', () => {
  it("names each authenticated operation's least role, as the route table declares it", async () => {
    const document = openApiDocument() as { paths: Record<string, Record<string, { 'x-gatehouse-role'?: string }>> };

    const declared = routes.map((route) => [`${route.method} ${route.path}`, document.paths[route.path]?.[route.method.toLowerCase()]?.['x-gatehouse-role'] ?? null]);

    expect(Object.fromEntries(declared)).toEqual(Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.role ?? null])));
  });
});
