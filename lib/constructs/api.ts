import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_VERSION, authorizer, routes } from '#functions/routes';
import { addProblemGatewayResponses } from '#lib/constructs/gateway-responses';
import { acknowledgeApiFindings } from '#lib/nag';
import { GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';
import { groupId, HANDLER_TIMEOUT, routeGroups, RouteGroupStack } from '#lib/constructs/api-routes';
import { addStreamOutputs } from '#lib/constructs/streaming';

/** The stage is the API version: clients call `/v1/...`, as against the local runtime. */
export const STAGE_NAME = API_VERSION;

/** Requests per second (steady, burst) the stage accepts across all clients before answering 429. */
export const STAGE_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

export type ApiProps = DataResources;

/**
 * The REST API, built from the route table: one function per route, one shared authorizer.
 * Streaming routes (the SSE event stream) are routes like the others, their integration in
 * response streaming mode (streaming.ts).
 *
 * The API itself, its stage and the authorizer live in the root stack; the routes live in nested
 * stacks, one per route group (api-routes.ts), so that no template nears CloudFormation's
 * 500 resources however many routes the table gains (test/infra/stack-limits.test.ts).
 */
export class Api extends Construct {
  public readonly api: RestApi;
  /** The authorizer's function: the stack hands it the sign-in settings (GATEHOUSE_OIDC_*). */
  public readonly authorizerFunction: GatehouseFunction;
  /** The nested stack of each route group, by its first path segment. */
  public readonly routeStacks = new Map<string, RouteGroupStack>();
  /** The function of each streaming route, by route path: like the authorizer, it checks tokens (GATEHOUSE_OIDC_*). */
  public readonly streamingFunctions = new Map<string, GatehouseFunction>();

  public constructor(scope: Construct, id: string, resources: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.api = new RestApi(this, 'RestApi', {
      description: 'Gatehouse public API',
      // API Gateway's metrics are keyed by API name and stage: one name per stack keeps two
      // deployments in one account from sharing the dashboard's and alarms' series.
      restApiName: Stack.of(this).stackName,
      // Clients are servers, not browsers around the world: an edge distribution buys nothing.
      endpointTypes: [EndpointType.REGIONAL],
      // Exports (PDF) are binary: the proxy integration passes base64 bodies through as bytes.
      // Request bodies then arrive base64-encoded too, which the JSON-body middleware decodes.
      binaryMediaTypes: ['*/*'],
      // Access logging needs the account-level CloudWatch role; the feature flag turns it off by default.
      cloudWatchRole: true,
      deployOptions: {
        stageName: STAGE_NAME,
        // A ceiling for the whole API, protecting the account's Lambda concurrency and the table;
        // fairness between tenants is the per-tenant rate limit's job, in the handlers.
        throttlingRateLimit: STAGE_THROTTLE.rateLimit,
        throttlingBurstLimit: STAGE_THROTTLE.burstLimit,
        tracingEnabled: true,
        metricsEnabled: true,
        // Errors only: INFO execution logs would copy request bodies (tenant data) into CloudWatch.
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            ip: AccessLogField.contextIdentitySourceIp(),
            // The API key id the authorizer resolved (its principalId), never the key itself.
            caller: AccessLogField.contextAuthorizerPrincipalId(),
            // The route as declared (`GET /tasks/{task_id}`), to group by; `path` is the concrete one.
            route: `${AccessLogField.contextHttpMethod()} ${AccessLogField.contextResourcePath()}`,
            path: AccessLogField.contextPath(),
            method: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            latencyMs: AccessLogField.contextResponseLatency(),
            integrationLatencyMs: AccessLogField.contextIntegrationLatency(),
            tenantId: AccessLogField.contextAuthorizer('tenant_id'),
            errorType: AccessLogField.contextErrorResponseType(),
            error: AccessLogField.contextErrorMessage(),
          }),
        ),
      },
    });
    addProblemGatewayResponses(this.api);

    this.authorizerFunction = new GatehouseFunction(this, 'Authorizer', { handlerFile: authorizer.handler, timeout: HANDLER_TIMEOUT });
    this.authorizerFunction.bindData(authorizer.access, resources);
    const apiKeyAuthorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: this.authorizerFunction,
      identitySources: [IdentitySource.header('Authorization')],
      // The answer depends only on the key, so it is cached per Authorization header.
      resultsCacheTtl: Duration.seconds(authorizer.cacheTtlSeconds),
    });

    for (const group of routeGroups(routes)) {
      const stack = new RouteGroupStack(this, groupId(group.segment), { api: this.api, group, authorizer: apiKeyAuthorizer, resources });
      this.routeStacks.set(group.segment, stack);
      for (const [path, fn] of stack.streamingFunctions) this.streamingFunctions.set(path, fn);
    }
    acknowledgeApiFindings(this.api, this.api.deploymentStage);

    // One output under a stable key for scripts; RestApi's own hashed `Endpoint` output would duplicate it.
    this.api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'Url', { value: this.api.url, description: `Base URL of the API (stage ${STAGE_NAME})` }).overrideLogicalId('ApiUrl');
    addStreamOutputs(this, this.api, routes.filter((route) => route.streaming));
  }
}
