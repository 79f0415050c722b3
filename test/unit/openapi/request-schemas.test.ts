import { describe, expect, it, vi } from 'vitest';
import { routes } from '#functions/routes';
import { operations } from '#functions/openapi/operations';

// The handlers' builders, replaced so that importing a handler module hands back the schemas it
// validates with; the document must describe those very objects, not a copy.
vi.mock('#shared/http/route-handler', () => ({ routeHandler: (schemas: object) => ({ schemas }) }));
vi.mock('#shared/http/public-route-handler', () => ({ publicRouteHandler: (schemas: object) => ({ schemas }) }));
vi.mock('#shared/http/signed-callback-handler', () => ({ signedCallbackHandler: (schemas: object) => ({ schemas }) }));
vi.mock('#shared/http/streaming-route-handler', () => ({ streamingRouteHandler: ({ path: _path, ...schemas }: { path: string }) => ({ schemas }) }));

describe('the OpenAPI operations', () => {
  it.each(routes.filter((route) => route.handler !== 'functions/health/get-health.ts').map((route) => [`${route.method} ${route.path}`, route.handler] as const))(
    '%s describes the schemas its handler validates with',
    async (key, file) => {
      const { handler } = (await import(/* @vite-ignore */ `../../../${file}`)) as { handler: { schemas: Record<string, unknown> } };

      expect(operations[key]?.request).toBeDefined();
      for (const part of ['params', 'query', 'body', 'headers']) expect(operations[key].request[part as 'body'], `${key} ${part}`).toBe(handler.schemas[part]);
    },
  );
});
