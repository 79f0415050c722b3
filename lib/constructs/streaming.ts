import { CfnOutput, Duration } from 'aws-cdk-lib';
import { FunctionUrlAuthType, InvokeMode, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_VERSION, routes } from '#functions/routes';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';

/** Lambda's ceiling: a stream lasts at most as long as one invocation. */
const STREAM_TIMEOUT = Duration.minutes(15);
/** The handler closes the stream after this long, ~60 s before the timeout; clients reconnect with Last-Event-ID. */
const STREAM_MAX_SECONDS = STREAM_TIMEOUT.toSeconds() - 60;

/** Stable output keys for scripts and clients; a route without one gets `<FunctionId>Url`. */
const OUTPUT_IDS: Record<string, string> = { '/events/stream': 'EventStreamUrl' };

export type StreamingProps = DataResources;

/**
 * The streaming routes of the route table (`streaming: true`), which API Gateway's REST API cannot
 * serve: one function per route with Lambda response streaming behind a Function URL of its own.
 * The URL has no IAM auth (`NONE`): nothing sits in front of the function, and the handler
 * checks the API key itself, with the same code as the API's authorizer.
 */
export class Streaming extends Construct {
  /** The Function URL of each streaming route, by route path. */
  public readonly urls = new Map<string, FunctionUrl>();
  /** The function of each streaming route, by route path: the stack hands them the sign-in settings. */
  public readonly functions = new Map<string, GatehouseFunction>();

  public constructor(scope: Construct, id: string, resources: StreamingProps) {
    super(scope, id);

    for (const route of routes.filter((route) => route.streaming)) {
      const name = functionId(route.handler);
      const fn = new GatehouseFunction(this, name, {
        handlerFile: route.handler,
        timeout: STREAM_TIMEOUT,
        memorySize: 512,
        environment: { STREAM_MAX_SECONDS: String(STREAM_MAX_SECONDS) },
      });
      fn.bindData(route.access, resources);
      this.functions.set(route.path, fn);
      const url = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.RESPONSE_STREAM });
      this.urls.set(route.path, url);

      // The Function URL serves any path; the handler ignores it, so clients use the same path as
      // against the local runtime. Clients call `<EventStreamUrl>` (e.g. `https://…lambda-url…/v1/events/stream`)
      // with `Authorization: Bearer <api key>` and `Accept: text/event-stream`.
      new CfnOutput(this, `${name}Url`, {
        value: `${url.url}${API_VERSION}${route.path}`,
        description: `Server-Sent Events endpoint for ${route.method} /${API_VERSION}${route.path} (Lambda Function URL, response streaming)`,
      }).overrideLogicalId(OUTPUT_IDS[route.path] ?? `${name}Url`);
    }
  }
}
