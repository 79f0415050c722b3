import { CfnOutput, Duration } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_VERSION, authorizer, routes } from '#functions/routes';
import { addProblemGatewayResponses } from '#lib/constructs/gateway-responses';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';

/** The stage is the API version: clients call `/v1/...`, as against the local runtime. */
export const STAGE_NAME = API_VERSION;

/** Below API Gateway's 29 s integration limit, so a slow handler ends as our problem+json, not a gateway 504. */
const HANDLER_TIMEOUT = Duration.seconds(10);

export type ApiProps = DataResources;

/**
 * The REST API, built from the route table: one function per route, one shared authorizer.
 * Streaming routes are not here: the `Streaming` construct serves them behind Function URLs.
 */
export class Api extends Construct {
  public readonly api: RestApi;

  public constructor(scope: Construct, id: string, resources: ApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH });
    this.api = new RestApi(this, 'RestApi', {
      description: 'Gatehouse public API',
      // Clients are servers, not browsers around the world: an edge distribution buys nothing.
      endpointTypes: [EndpointType.REGIONAL],
      // Exports (PDF) are binary: the proxy integration passes base64 bodies through as bytes.
      // Request bodies then arrive base64-encoded too, which the JSON-body middleware decodes.
      binaryMediaTypes: ['*/*'],
      // Access logging needs the account-level CloudWatch role; the feature flag turns it off by default.
      cloudWatchRole: true,
      deployOptions: {
        stageName: STAGE_NAME,
        throttlingRateLimit: 100,
        throttlingBurstLimit: 200,
        tracingEnabled: true,
        metricsEnabled: true,
        // Errors only: INFO execution logs would copy request bodies (tenant data) into CloudWatch.
        loggingLevel: MethodLoggingLevel.ERROR,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            ip: AccessLogField.contextIdentitySourceIp(),
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

    const authorizerFunction = new GatehouseFunction(this, 'Authorizer', { handlerFile: authorizer.handler, timeout: HANDLER_TIMEOUT });
    authorizerFunction.bindData(authorizer.access, resources);
    const apiKeyAuthorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header('Authorization')],
      // The answer depends only on the key, so it is cached per Authorization header.
      resultsCacheTtl: Duration.seconds(authorizer.cacheTtlSeconds),
    });

    for (const route of routes.filter((route) => !route.streaming)) {
      const fn = new GatehouseFunction(this, functionId(route.handler), { handlerFile: route.handler, timeout: HANDLER_TIMEOUT });
      fn.bindData(route.access, resources);
      this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        new LambdaIntegration(fn),
        route.auth === 'api_key' ? { authorizer: apiKeyAuthorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE },
      );
    }

    // One output under a stable key for scripts; RestApi's own hashed `Endpoint` output would duplicate it.
    this.api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'Url', { value: this.api.url, description: `Base URL of the API (stage ${STAGE_NAME})` }).overrideLogicalId('ApiUrl');
  }
}
