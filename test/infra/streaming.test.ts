import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '#functions/routes';
import { synthGatehouse } from './synth';
import { actionsOf, functionIdFor, functionUrlFor, getAttTarget, methodFor, roleStatements, type CfnResource } from './template-queries';

const streamingRoutes = routes.filter((route) => route.streaming);
const eventStream = streamingRoutes.find((route) => route.path === '/events/stream') as RouteDefinition;
const asCases = (list: readonly RouteDefinition[]) => list.map((route) => [`${route.method} ${route.path}`, route] as const);

describe('streaming routes', () => {
  let template: Template;
  const functionOf = (route: RouteDefinition) => template.findResources('AWS::Lambda::Function')[functionIdFor(template, route)] as CfnResource;
  const permissionsOf = (route: RouteDefinition) =>
    (Object.values(template.findResources('AWS::Lambda::Permission')) as CfnResource[]).filter(
      ({ Properties }) => getAttTarget(Properties.FunctionName) === functionIdFor(template, route),
    );

  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('has GET /events/stream as a streaming route that checks the API key in its handler', () => {
    expect(eventStream).toMatchObject({ method: 'GET', handler: 'functions/events/stream-events.ts', auth: 'in_handler' });
  });

  it('gives every streaming route a Function URL of its own, and nothing else one', () => {
    template.resourceCountIs('AWS::Lambda::Url', streamingRoutes.length);
    const targets = streamingRoutes.map((route) => functionIdFor(template, route));
    expect(new Set(targets).size).toBe(streamingRoutes.length);
  });

  it.each(asCases(streamingRoutes))('serves %s with response streaming behind a Function URL without IAM auth', (_, route) => {
    const { url } = functionUrlFor(template, route);

    expect(url.Properties).toMatchObject({ InvokeMode: 'RESPONSE_STREAM', AuthType: 'NONE' });
    expect(url.Properties.Cors).toBeUndefined();
    expect(url.Properties.Qualifier).toBeUndefined();
  });

  it.each(asCases(streamingRoutes))('lets anyone invoke %s, but only through its Function URL', (_, route) => {
    const permissions = permissionsOf(route).map(({ Properties }) => Properties);

    expect(permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', Principal: '*', FunctionUrlAuthType: 'NONE' }),
        expect.objectContaining({ Action: 'lambda:InvokeFunction', Principal: '*', InvokedViaFunctionUrl: true }),
      ]),
    );
    for (const permission of permissions) {
      if (permission.Action === 'lambda:InvokeFunction') expect(permission.InvokedViaFunctionUrl).toBe(true);
    }
    expect(permissions.filter(({ Principal }) => Principal === 'apigateway.amazonaws.com')).toEqual([]);
  });

  it.each(asCases(streamingRoutes))('runs %s for up to 15 minutes on Node 22 arm64 and closes the stream a minute earlier', (_, route) => {
    const { Properties } = functionOf(route);

    expect(Properties).toMatchObject({
      Timeout: 900,
      MemorySize: 512,
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
      Environment: { Variables: { STREAM_MAX_SECONDS: '840', NODE_OPTIONS: '--enable-source-maps', TABLE_NAME: { Ref: expect.any(String) } } },
    });
    expect(Properties.Timeout - Number(Properties.Environment.Variables.STREAM_MAX_SECONDS)).toBe(60);
  });

  it.each(asCases(streamingRoutes))('has no API Gateway method or resource for %s', (_, route) => {
    expect(() => methodFor(template, route)).toThrow(/found 0/);
    const lastPart = route.path.split('/').at(-1);
    template.resourcePropertiesCountIs('AWS::ApiGateway::Resource', { PathPart: lastPart }, 0);
  });

  it('outputs the event stream URL under a stable key: the Function URL followed by /v1/events/stream', () => {
    const { outputId, urlId } = functionUrlFor(template, eventStream);

    expect(outputId).toBe('EventStreamUrl');
    template.hasOutput('EventStreamUrl', { Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [urlId, 'FunctionUrl'] }, 'v1/events/stream']] } });
  });

  it('lets the stream function read the table (as its route declares) and nothing more', () => {
    const actions = actionsOf(roleStatements(template, functionIdFor(template, eventStream)));

    expect(eventStream.access).toEqual({ table: 'read_write', rateLimit: true });
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    expect(actions.filter((action) => action.startsWith('sqs:') || action.startsWith('scheduler:'))).toEqual([]);
  });
});
