import { createServer, type Server } from 'node:http';
import { lambdaContext, loadHandler } from '#lib/local/handler-loader';

export interface InvokableFunction {
  /** Handler file, as the CDK stack bundles it. */
  handler: string;
  timeoutSeconds: number;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
/** Lambda's synchronous payload limit. */
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

/**
 * Lambda's Invoke API (RequestResponse) on loopback, for the functions the local runtime lets
 * others invoke by name: callers use the real @aws-sdk/client-lambda with this as its endpoint.
 * A handler that throws answers 200 with `X-Amz-Function-Error: Unhandled` and the error as the
 * payload, as Lambda does; an unknown function is 404 ResourceNotFoundException.
 */
export async function startLambdaInvokeServer(functions: Record<string, InvokableFunction>): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const match = INVOKE_PATH.exec(request.url?.split('?')[0] ?? '');
    const name = match ? decodeURIComponent(match[1]) : undefined;
    const target = name !== undefined && Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (request.method !== 'POST' || !target) {
      request.resume();
      response.writeHead(404, { 'Content-Type': 'application/json', 'X-Amzn-ErrorType': 'ResourceNotFoundException' });
      response.end(JSON.stringify({ Type: 'User', message: `Function not found: ${name ?? request.url}` }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      void (async () => {
        if (size > MAX_PAYLOAD_BYTES) {
          response.writeHead(413, { 'Content-Type': 'application/json', 'X-Amzn-ErrorType': 'RequestTooLargeException' });
          response.end(JSON.stringify({ Type: 'User', message: 'Request must be smaller than 6291456 bytes for the InvokeFunction operation' }));
          return;
        }
        let payload: string;
        let failed = false;
        try {
          const event = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
          const handler = await loadHandler(target.handler);
          payload = JSON.stringify((await handler(event, lambdaContext(name!, target.timeoutSeconds))) ?? null);
        } catch (error) {
          failed = true;
          payload = JSON.stringify({ errorType: (error as Error)?.name ?? 'Error', errorMessage: (error as Error)?.message ?? String(error) });
        }
        response.writeHead(200, { 'Content-Type': 'application/json', 'X-Amz-Executed-Version': '$LATEST', ...(failed ? { 'X-Amz-Function-Error': 'Unhandled' } : {}) });
        response.end(payload);
      })();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
