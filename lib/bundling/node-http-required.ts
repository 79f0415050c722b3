import { createRequire } from 'node:module';
import type * as Http from 'node:http';

/**
 * Stands in for `node:http` inside function bundles (an esbuild alias, see ./aliases.ts): the very
 * module object, taken with `require` instead of an ESM import. To import a built-in, Node 22
 * and 24 (Lambda's nodejs24.x: 59 ms of CPU for `import('node:http')`, 5 ms for `require`) build an ES module facade by reading every export, and `node:http`'s
 * `WebSocket`, `CloseEvent` and `MessageEvent` are getters that load undici, Node's fetch and
 * WebSocket, on first read. Powertools Tracer imports `node:http` at load (to trace it), the SDK's
 * HTTP handler on first request: every cold start loaded undici without using it. `require`
 * returns the module without reading its getters. Named exports are bound here, as an ESM import
 * of the built-in binds them; code that must see the tracer's patch calls through the default
 * export (`http.request`), as shared/adapters/http/deliver-webhook.ts does.
 */
const http = createRequire(import.meta.url)('node:http') as typeof Http;

export default http;
export const { Agent, ClientRequest, IncomingMessage, METHODS, OutgoingMessage, STATUS_CODES, Server, ServerResponse, createServer, get, globalAgent, request, validateHeaderName, validateHeaderValue } = http;
