import { Capture, Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizer, routes, type HttpMethod, type RouteDefinition } from '#functions/routes';
import { groupId, routeGroups } from '#lib/constructs/api-routes';
import { synthGatehouse } from './synth';
import { STAGE_THROTTLE } from '#lib/constructs/api';
import { functionIdFor, getAttTarget, methodFor, type CfnResource } from './template-queries';

const PROBLEM_JSON = "'application/problem+json'";
/** Every route of the table, the streaming one included (its integration streams: streaming.test.ts). */
const apiRoutes = routes;

describe('REST API', () => {
  let template: Template;
  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('is one regional REST API deployed to the v1 stage with throttling, tracing, metrics and JSON access logs', () => {
    const accessLogFormat = new Capture();

    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'v1',
      TracingEnabled: true,
      MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', MetricsEnabled: true, ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 })],
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: accessLogFormat },
    });

    expect(JSON.parse(accessLogFormat.asString())).toMatchObject({ requestId: '$context.requestId', status: '$context.status', tenantId: '$context.authorizer.tenant_id' });
  });

  it('caps the whole stage at STAGE_THROTTLE: a ceiling that protects the account, whatever the tenants do', () => {
    expect(STAGE_THROTTLE).toEqual({ rateLimit: 100, burstLimit: 200 });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit })],
    });
  });

  it('writes one JSON access log line per request to its own log group: request id, ip, caller, route, status, latency', () => {
    const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0] as CfnResource;
    const { DestinationArn, Format } = stage.Properties.AccessLogSetting;
    // `arn:…:log-group:<name>` without the `:*` suffix (cdk.json's logGroupDestinationArnWithoutWildcard).
    const [, parts] = DestinationArn['Fn::Join'] as [string, unknown[]];
    const logGroupId = (parts.at(-1) as { Ref: string }).Ref;
    expect(parts.at(-2)).toMatch(/:log-group:$/);

    expect(template.findResources('AWS::Logs::LogGroup')[logGroupId]).toBeDefined();
    expect(stage.Properties.MethodSettings[0].LoggingLevel).toBe('ERROR');
    expect(JSON.parse(Format)).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      caller: '$context.authorizer.principalId',
      route: '$context.httpMethod $context.resourcePath',
      status: '$context.status',
      latencyMs: '$context.responseLatency',
      integrationLatencyMs: '$context.integrationLatency',
    });
  });

  it('has exactly one method per route in the table, the streaming route included', () => {
    expect(routes.some((route) => route.streaming)).toBe(true);
    template.resourceCountIs('AWS::ApiGateway::Method', routes.length);
  });

  it.each(apiRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('serves %s through a Lambda proxy integration', (_, route) => {
    const method = methodFor(template, route);

    expect(method.Properties).toMatchObject({ HttpMethod: route.method, Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' } });
    // Only a streaming route's answer is streamed; the others are buffered (API Gateway's default).
    expect(method.Properties.Integration.ResponseTransferMode).toBe(route.streaming ? 'STREAM' : undefined);
  });

  it('invokes the route functions with one role per route group, which may invoke exactly that group\'s functions and nothing else', () => {
    const groups = routeGroups(apiRoutes);
    const roleOf = (route: RouteDefinition) => getAttTarget(methodFor(template, route).Properties.Integration.Credentials)!;

    expect(groups.length).toBeGreaterThan(5);
    expect(new Set(apiRoutes.map(roleOf)).size).toBe(groups.length);
    for (const group of groups) {
      const roleIds = new Set(group.routes.map(roleOf));
      expect(roleIds.size, group.segment).toBe(1);
      const [roleId] = roleIds;
      const role = template.findResources('AWS::IAM::Role')[roleId] as CfnResource;
      const statements = (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[])
        .filter(({ Properties }) => (Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId))
        .flatMap(({ Properties }) => Properties.PolicyDocument.Statement as { Action: string; Effect: string; Resource: unknown }[]);
      const invoked = statements.flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));

      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'apigateway.amazonaws.com' } }]);
      expect(statements.map(({ Action, Effect }) => [Action, Effect])).toEqual(statements.map(() => ['lambda:InvokeFunction', 'Allow']));
      expect(invoked.sort(), group.segment).toEqual(group.routes.map((route) => functionIdFor(template, route)).sort());
    }
    // No resource-based permission lets API Gateway invoke a route function any other way.
    const apiPermissions = (Object.values(template.findResources('AWS::Lambda::Permission')) as CfnResource[]).filter(({ Properties }) => Properties.Principal === 'apigateway.amazonaws.com');
    expect(apiPermissions.map(({ Properties }) => getAttTarget(Properties.FunctionName))).toEqual([getAttTarget(Object.values(template.findResources('AWS::ApiGateway::Authorizer'))[0].Properties.AuthorizerUri)]);
  });

  it('puts each route group in a nested stack of its own, and redeploys the stage after all of them', () => {
    const deployments = template.findResources('AWS::ApiGateway::Deployment') as Record<string, CfnResource & { DependsOn?: string[] }>;
    const nestedStacks = Object.entries(template.findResources('AWS::CloudFormation::Stack') as Record<string, CfnResource>).filter(([, { Metadata }]) => Metadata?.['aws:cdk:path']?.startsWith('Gatehouse/Api/'));
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')) as CfnResource[];

    expect(nestedStacks.map(([, { Metadata }]) => Metadata?.['aws:cdk:path']).sort()).toEqual(routeGroups(apiRoutes).map(({ segment }) => `Gatehouse/Api/${groupId(segment)}.NestedStack/${groupId(segment)}.NestedStackResource`).sort());
    for (const method of methods) expect(method.Metadata?.['aws:cdk:path']).toMatch(/^Gatehouse\/Api\/[A-Za-z]+\/Path\//);
    expect(Object.keys(deployments)).toHaveLength(1);
    expect(Object.values(deployments)[0].DependsOn).toEqual(expect.arrayContaining(nestedStacks.map(([id]) => id)));
  });

  it('groups routes by their first path segment, in route-table order', () => {
    const fake = (method: HttpMethod, path: string) => ({ ...apiRoutes[0], method, path });
    const groups = routeGroups([fake('GET', '/tasks'), fake('GET', '/api-keys'), fake('POST', '/tasks/{task_id}/cancel'), fake('GET', '/openapi.json')]);

    expect(groups.map(({ segment, routes }) => [segment, routes.map(({ method, path }) => `${method} ${path}`)])).toEqual([
      ['tasks', ['GET /tasks', 'POST /tasks/{task_id}/cancel']],
      ['api-keys', ['GET /api-keys']],
      ['openapi.json', ['GET /openapi.json']],
    ]);
    expect(groups.map(({ segment }) => groupId(segment))).toEqual(['Tasks', 'ApiKeys', 'OpenapiJson']);
  });

  it('guards api_key routes with the request authorizer and leaves the others open', () => {
    const authorizerId = Object.keys(template.findResources('AWS::ApiGateway::Authorizer'))[0];

    for (const route of apiRoutes) {
      const { Properties } = methodFor(template, route);
      if (route.auth === 'api_key') expect(Properties, route.path).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      else expect(Properties, route.path).toMatchObject({ AuthorizationType: 'NONE' });
    }
    expect(methodFor(template, routes.find((route) => route.path === '/health')!).Properties.AuthorizationType).toBe('NONE');
  });

  it('resolves API keys with a REQUEST authorizer on the Authorization header, cached per key', () => {
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: authorizer.cacheTtlSeconds,
    });
    expect(authorizer.cacheTtlSeconds).toBe(60);
  });

  it.each([
    ['UNAUTHORIZED', '401', 'unauthorized'],
    ['ACCESS_DENIED', '403', 'forbidden'],
    ['MISSING_AUTHENTICATION_TOKEN', '404', 'route_not_found'],
    ['AUTHORIZER_FAILURE', '503', 'service_unavailable'],
    ['AUTHORIZER_CONFIGURATION_ERROR', '503', 'service_unavailable'],
    ['REQUEST_TOO_LARGE', '413', 'payload_too_large'],
    ['THROTTLED', '429', 'rate_limited'],
  ])('answers the gateway response %s with a %s problem+json (%s)', (responseType, statusCode, code) => {
    const body = new Capture();

    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: responseType,
      StatusCode: statusCode,
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Content-Type': PROBLEM_JSON }),
      ResponseTemplates: { 'application/json': body },
    });

    expect(JSON.parse(body.asString())).toEqual({
      type: `/v1/problems/${code.replace(/_/g, '-')}`,
      title: expect.any(String),
      status: Number(statusCode),
      detail: expect.any(String),
      code,
    });
  });

  it('asks clients to retry throttled and authorizer-failure responses later', () => {
    for (const responseType of ['THROTTLED', 'AUTHORIZER_FAILURE']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: responseType,
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': Match.stringLikeRegexp("^'\\d+'$") }),
      });
    }
  });

  it('shapes every other gateway 4xx and 5xx as problem+json too, keeping their own status codes', () => {
    const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')) as CfnResource[];

    for (const responseType of ['DEFAULT_4XX', 'DEFAULT_5XX']) {
      const response = responses.find(({ Properties }) => Properties.ResponseType === responseType);
      expect(response?.Properties.StatusCode, responseType).toBeUndefined();
      expect(response?.Properties.ResponseParameters['gatewayresponse.header.Content-Type']).toBe(PROBLEM_JSON);
      expect(response?.Properties.ResponseTemplates['application/json']).toMatch(/^\{"type":"\/v1\/problems\/[a-z-]+","title":"[^"]+","detail":.+,"code":"[a-z_]+"\}$/);
    }
  });

  it('outputs the base URL of the v1 stage under a stable key', () => {
    template.hasOutput('ApiUrl', {
      Value: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('^https://$'), { Ref: Match.stringLikeRegexp('Stagev1') }])] },
    });
    // RestApi's own hashed `Endpoint` output is removed; the others are the event stream's, the alarm topic's, sign-in's and inbound mail's.
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual(['ActivateRuleSetCommand', 'AlarmTopicArn', 'ApiUrl', 'DashboardUrl', 'EventStreamUrl', 'SignInDomain', 'UserPoolClientId', 'UserPoolId']);
  });
});
