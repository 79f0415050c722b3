import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizer, routes, type RouteDefinition } from '#functions/routes';
import { STAGE_THROTTLE } from '#lib/constructs/api';
import { synthGatehouse, synthGatehouseTemplates } from './synth';
import { actionsOf, functionIdFor, getAttTarget, methodFor, roleStatements, type CfnResource } from './template-queries';

const streamingRoutes = routes.filter((route) => route.streaming);
const eventStream = streamingRoutes.find((route) => route.path === '/events/stream') as RouteDefinition;
const asCases = (list: readonly RouteDefinition[]) => list.map((route) => [`${route.method} ${route.path}`, route] as const);

describe('streaming routes', () => {
  let template: Template;
  const functionOf = (route: RouteDefinition) => template.findResources('AWS::Lambda::Function')[functionIdFor(template, route)] as CfnResource;

  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('has GET /events/stream as a streaming route behind the API key authorizer, like every other route', () => {
    expect(eventStream).toMatchObject({ method: 'GET', handler: 'functions/events/stream-events.ts', auth: 'api_key', role: 'viewer' });
  });

  it('creates no Function URL (AWS::Lambda::Url is missing in eu-central-2, me-central-1, il-central-1) in any template', () => {
    const templates = synthGatehouseTemplates();
    expect(templates.length).toBeGreaterThan(1);
    for (const { path, json } of templates) {
      expect(Object.values(json.Resources).filter(({ Type }) => Type === 'AWS::Lambda::Url'), path).toEqual([]);
    }
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission')) as CfnResource[];
    expect(permissions.filter(({ Properties }) => Properties.Action === 'lambda:InvokeFunctionUrl' || Properties.FunctionUrlAuthType || Properties.Principal === '*')).toEqual([]);
  });

  it.each(asCases(streamingRoutes))('serves %s through the REST API with a response-streaming proxy integration of 15 minutes', (_, route) => {
    const { Properties } = methodFor(template, route);

    expect(Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: expect.any(String) } });
    expect(Properties.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST', ResponseTransferMode: 'STREAM', TimeoutInMillis: 900_000 });
    // arn:…:apigateway:<region>:lambda:path/2021-11-15/functions/<function arn>/response-streaming-invocations
    const uri = JSON.stringify(Properties.Integration.Uri);
    expect(uri).toContain(':lambda:path/2021-11-15/functions/');
    expect(uri).toContain('/response-streaming-invocations');
    expect(getAttTarget(Properties.Integration.Uri)).toBe(functionIdFor(template, route));
  });

  it.each(asCases(streamingRoutes))('sits behind the same authorizer as every other authenticated route (%s)', (_, route) => {
    const others = routes.filter((candidate) => candidate.auth === 'api_key' && !candidate.streaming).map((candidate) => methodFor(template, candidate).Properties.AuthorizerId);

    expect(new Set(others.map((id) => JSON.stringify(id))).size).toBe(1);
    expect(methodFor(template, route).Properties.AuthorizerId).toEqual(others[0]);
    expect(authorizer.cacheTtlSeconds).toBeLessThanOrEqual(60);
  });

  it('throttles the stream with the stage, as every route: no method setting exempts it', () => {
    const stages = Object.values(template.findResources('AWS::ApiGateway::Stage')) as CfnResource[];

    expect(stages).toHaveLength(1);
    const settings = stages[0].Properties.MethodSettings as { HttpMethod: string; ResourcePath: string; ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }[];
    expect(settings).toEqual(expect.arrayContaining([expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: STAGE_THROTTLE.burstLimit })]));
    expect(settings.filter((setting) => setting.ResourcePath !== '/*')).toEqual([]);
  });

  it.each(asCases(streamingRoutes))('lets API Gateway invoke %s with the route group role only (lambda:InvokeFunction covers InvokeWithResponseStream)', (_, route) => {
    const { Properties } = methodFor(template, route);
    const roleId = getAttTarget(Properties.Integration.Credentials) as string;
    const role = template.findResources('AWS::IAM::Role')[roleId] as CfnResource;
    const statements = (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[])
      .filter(({ Properties: policy }) => (policy.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId))
      .flatMap(({ Properties: policy }) => policy.PolicyDocument.Statement as { Action: string; Resource: unknown }[]);

    expect(role.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({ Service: 'apigateway.amazonaws.com' });
    const invoking = statements.filter((statement) => [statement.Resource].flat().some((resource) => getAttTarget(resource) === functionIdFor(template, route)));
    expect(invoking.map((statement) => statement.Action)).toEqual(['lambda:InvokeFunction']);
  });

  it.each(asCases(streamingRoutes))('runs %s for up to 15 minutes, closes the stream a minute earlier and re-checks its caller every 30 s', (_, route) => {
    const { Properties } = functionOf(route);

    expect(Properties).toMatchObject({
      Timeout: 900,
      MemorySize: 512,
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: { STREAM_MAX_SECONDS: '840', STREAM_RECHECK_SECONDS: '30', NODE_OPTIONS: '--enable-source-maps', TABLE_NAME: { Ref: expect.any(String) } } },
    });
    expect(Properties.Timeout - Number(Properties.Environment.Variables.STREAM_MAX_SECONDS)).toBe(60);
  });

  it('outputs the event stream URL under a stable key: the API URL followed by events/stream', () => {
    const outputs = template.findOutputs('EventStreamUrl') as Record<string, { Value: { 'Fn::Join': [string, unknown[]] } }>;
    const parts = outputs.EventStreamUrl.Value['Fn::Join'][1];
    const apiUrl = (template.findOutputs('ApiUrl') as Record<string, { Value: { 'Fn::Join': [string, unknown[]] } }>).ApiUrl.Value['Fn::Join'][1];

    expect(parts.at(-1)).toMatch(/\/events\/stream$/);
    expect(parts.slice(0, -1)).toEqual(apiUrl.slice(0, -1));
    expect(`${apiUrl.at(-1)}events/stream`).toBe(parts.at(-1));
  });

  it('lets the stream function read the table (as its route declares) and nothing more', () => {
    const actions = actionsOf(roleStatements(template, functionIdFor(template, eventStream)));

    expect(eventStream.access).toEqual({ table: 'read_write', rateLimit: true });
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    expect(actions.filter((action) => action.startsWith('sqs:') || action.startsWith('scheduler:'))).toEqual([]);
  });
});
