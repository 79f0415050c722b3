import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  AwsIntegration,
  EndpointType,
  IdentitySource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_VERSION, authorizer, routes } from '#functions/routes';
import { addProblemGatewayResponses } from '#lib/constructs/gateway-responses';
import { acknowledgeApiFindings, acknowledgePublicMethod } from '#lib/nag';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';

/** The stage is the API version: clients call `/v1/...`, as against the local runtime. */
export const STAGE_NAME = API_VERSION;

/** Requests per second (steady, burst) the stage accepts across all clients before answering 429. */
export const STAGE_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

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

    const authorizerFunction = new GatehouseFunction(this, 'Authorizer', { handlerFile: authorizer.handler, timeout: HANDLER_TIMEOUT });
    authorizerFunction.bindData(authorizer.access, resources);
    const apiKeyAuthorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: authorizerFunction,
      identitySources: [IdentitySource.header('Authorization')],
      // The answer depends only on the key, so it is cached per Authorization header.
      resultsCacheTtl: Duration.seconds(authorizer.cacheTtlSeconds),
    });

    // API Gateway invokes the route functions with one role of its own, allowed to invoke exactly
    // them, instead of one resource-based Lambda permission per method (CDK's LambdaIntegration):
    // one role and one policy in place of a resource per route keeps the stack under
    // CloudFormation's 500 resources as routes are added (test/infra/stack-limits.test.ts).
    const invokeRole = new Role(this, 'InvokeRole', { assumedBy: new ServicePrincipal('apigateway.amazonaws.com'), description: 'API Gateway invokes the API route functions with this role' });
    for (const route of routes.filter((route) => !route.streaming)) {
      const fn = new GatehouseFunction(this, functionId(route.handler), { handlerFile: route.handler, timeout: HANDLER_TIMEOUT });
      fn.bindData(route.access, resources);
      invokeRole.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
      const method = this.api.root.resourceForPath(route.path).addMethod(
        route.method,
        // What LambdaIntegration builds (a Lambda proxy integration), with the role as credentials.
        new AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${fn.functionArn}/invocations`, options: { credentialsRole: invokeRole } }),
        route.auth === 'api_key' ? { authorizer: apiKeyAuthorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE },
      );
      if (route.auth === 'none') acknowledgePublicMethod(method);
    }
    acknowledgeApiFindings(this.api, this.api.deploymentStage);

    // One output under a stable key for scripts; RestApi's own hashed `Endpoint` output would duplicate it.
    this.api.node.tryRemoveChild('Endpoint');
    new CfnOutput(this, 'Url', { value: this.api.url, description: `Base URL of the API (stage ${STAGE_NAME})` }).overrideLogicalId('ApiUrl');
  }
}
