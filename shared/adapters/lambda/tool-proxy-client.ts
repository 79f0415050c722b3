import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { getOptionalStringFromEnv, getStringFromEnv, once } from '#shared/config/env';
import { ServiceUnavailableError } from '#shared/domain/errors';
import type { ToolProxy, ToolProxyRequest } from '#shared/domain/tool-proxy';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** The tool proxy function's name (CDK sets it; the local runtime names its own). */
export const TOOL_PROXY_FUNCTION_ENV = 'TOOL_PROXY_FUNCTION_NAME' as const;
/** Locally, the runtime's Lambda Invoke endpoint (lib/local/lambda-invoke-server.ts); unset on AWS. */
export const LAMBDA_ENDPOINT_ENV = 'GATEHOUSE_LAMBDA_ENDPOINT';

const lambdaClient = once(() => {
  const endpoint = getOptionalStringFromEnv(LAMBDA_ENDPOINT_ENV);
  // The proxy's own retries bound a call to well under this; one attempt, so a slow provider is not called twice.
  return traced(withoutSdkLogger(new LambdaClient({ maxAttempts: 1, requestHandler: { connectionTimeout: 2_000, requestTimeout: 60_000 }, ...(endpoint ? { endpoint } : {}) })));
});

/**
 * A function error or an unreadable answer is an outage of the proxy, not an answer: a route
 * answers it 503 (its detail stays in `cause`, for the logs), a worker's message is retried.
 */
export class ToolProxyUnavailableError extends ServiceUnavailableError {
  constructor(reason: string) {
    super();
    this.name = 'ToolProxyUnavailableError';
    this.cause = new Error(reason);
  }
}

async function invoke<T>(request: ToolProxyRequest): Promise<T> {
  const answer = await lambdaClient()
    .send(new InvokeCommand({ FunctionName: getStringFromEnv(TOOL_PROXY_FUNCTION_ENV), InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(request)) }))
    .catch((error: unknown) => {
      throw new ToolProxyUnavailableError(`The tool proxy could not be invoked: ${error instanceof Error ? error.message : String(error)}`);
    });
  const text = answer.Payload ? Buffer.from(answer.Payload).toString('utf8') : '';
  if (answer.FunctionError) throw new ToolProxyUnavailableError(`The tool proxy failed (${answer.FunctionError}): ${text.slice(0, 500)}`);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ToolProxyUnavailableError('The tool proxy answered something that is not JSON.');
  }
}

/** Invokes the tool proxy function synchronously through the Lambda API (the real client locally too). */
export const toolProxy: ToolProxy = {
  callTool: (request) => invoke(request),
  testIntegration: (request) => invoke(request),
  slackRequest: (request) => invoke(request),
};
