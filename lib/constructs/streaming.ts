import { CfnOutput, Duration } from 'aws-cdk-lib';
import { AwsIntegration, ResponseTransferMode, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { API_VERSION, type RouteDefinition } from '#functions/routes';
import { functionId } from '#lib/constructs/gatehouse-function';

/**
 * How the streaming routes of the route table (`streaming: true`, the SSE event stream) run on
 * AWS: through the REST API like every other route, behind the same authorizer, stage throttling
 * and access log, with the integration in API Gateway's `STREAM` response transfer mode (Lambda's
 * InvokeWithResponseStream). No Function URL: `AWS::Lambda::Url` is missing in some commercial
 * regions (eu-central-2, me-central-1, il-central-1), and a URL of its own put the stream beside
 * the API's authorizer and throttling instead of behind them.
 */

/** Lambda's ceiling, and API Gateway's for a streamed response: a stream lasts at most one invocation. */
export const STREAM_TIMEOUT = Duration.minutes(15);
/** The handler closes the stream this long after it opened, a minute before the timeout; clients reconnect with Last-Event-ID. */
export const STREAM_MAX_SECONDS = STREAM_TIMEOUT.toSeconds() - 60;
/** The stream checks its caller again this often (the handler's default and ceiling too). */
export const STREAM_RECHECK_SECONDS = 30;
/** A stream mostly waits between polls of the table; it needs no more. */
export const STREAM_MEMORY_MB = 512;

/** Stable output keys for scripts and clients; a route without one gets `<FunctionId>Url`. */
const OUTPUT_IDS: Record<string, string> = { '/events/stream': 'EventStreamUrl' };

/** A streaming route function's timeout, memory and environment. */
export function streamingFunctionProps(): { timeout: Duration; memorySize: number; environment: Record<string, string> } {
  return {
    timeout: STREAM_TIMEOUT,
    memorySize: STREAM_MEMORY_MB,
    environment: { STREAM_MAX_SECONDS: String(STREAM_MAX_SECONDS), STREAM_RECHECK_SECONDS: String(STREAM_RECHECK_SECONDS) },
  };
}

/**
 * The Lambda proxy integration of a streaming route: the response-streaming invocation URI
 * (`2021-11-15/functions/<arn>/response-streaming-invocations`), `STREAM` transfer mode, and an
 * integration timeout of the function's own 15 minutes (API Gateway allows up to 15 minutes for a
 * streamed response, instead of 29 s). API Gateway invokes it with the group's role, which needs
 * `lambda:InvokeFunction` (the permission InvokeWithResponseStream asks for).
 */
export function streamingIntegration(fn: IFunction, credentialsRole: IRole): AwsIntegration {
  return new AwsIntegration({
    proxy: true,
    service: 'lambda',
    path: `2021-11-15/functions/${fn.functionArn}/response-streaming-invocations`,
    options: { credentialsRole, responseTransferMode: ResponseTransferMode.STREAM, timeout: STREAM_TIMEOUT },
  });
}

/** The URL of each streaming route as a stack output: the API's URL (`…/v1/`) and the route's path. */
export function addStreamOutputs(scope: Construct, api: RestApi, streamingRoutes: readonly RouteDefinition[]): void {
  for (const route of streamingRoutes) {
    const name = functionId(route.handler);
    new CfnOutput(scope, `${name}Url`, {
      value: `${api.url}${route.path.slice(1)}`,
      description: `Server-Sent Events endpoint for ${route.method} /${API_VERSION}${route.path} (REST API response streaming): call it with Authorization: Bearer <api key> and Accept: text/event-stream`,
    }).overrideLogicalId(OUTPUT_IDS[route.path] ?? `${name}Url`);
  }
}
