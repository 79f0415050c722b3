import { App, Duration, Stack } from 'aws-cdk-lib';
import { Annotations, Capture, Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizer, routes } from '#functions/routes';
import { TASK_QUEUES, consumers, scanDetectorWorker } from '#shared/config/topology';
import { GatehouseFunction, type AccessDeclaration, type DataResources } from '#lib/constructs/gatehouse-function';
import { synthGatehouse, synthGatehouseStack } from './synth';
import { consumerId, DECLARED_FUNCTION_COUNT, declaredFunctions, functionIdFor, getAttTarget, providerFunctionIds, serviceFunctions, type CfnResource } from './template-queries';

const QUEUE_URL_ENVS = Object.values(TASK_QUEUES).map((queue) => queue.urlEnv);
const UNBOUND_ACCESS = Match.stringLikeRegexp('gatehouse:unbound-access');

describe('Lambda functions', () => {
  let template: Template;
  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it("creates one function per route, plus the authorizer, the queue consumers and the schedule targets, besides CDK's two deploy-time providers", () => {
    const ids = declaredFunctions(template).map(({ id }) => id);

    expect(providerFunctionIds(template)).toHaveLength(2);
    template.resourceCountIs('AWS::Lambda::Function', DECLARED_FUNCTION_COUNT + 2);
    expect(new Set(ids).size).toBe(DECLARED_FUNCTION_COUNT);
    expect(Object.keys(serviceFunctions(template)).sort()).toEqual([...ids].sort());
  });

  it('gives every function our defaults: Node 24 on arm64 (x86_64 where Chromium runs), X-Ray, ESM handler, source maps', () => {
    const rendering = consumerId(template, scanDetectorWorker);
    for (const [id, fn] of Object.entries(serviceFunctions(template))) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: [id === rendering ? 'x86_64' : 'arm64'],
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      });
    }
  });

  it("logs every function, CDK's providers too, to its own log group that expires after a month", () => {
    const logGroup = new Capture();
    const monthLong = template.findResources('AWS::Logs::LogGroup', { Properties: { RetentionInDays: 30 } });

    template.allResourcesProperties('AWS::Lambda::Function', { LoggingConfig: { LogGroup: { Ref: logGroup } } });
    const used: string[] = [];
    do used.push(logGroup.asString());
    while (logGroup.next());

    expect(used).toHaveLength(DECLARED_FUNCTION_COUNT + 2);
    expect(new Set(used).size).toBe(used.length);
    for (const id of used) expect(monthLong).toHaveProperty(id);
  });

  it('gives API handlers 10 s and 512 MB, below the gateway 29 s limit', () => {
    const routeFunctions = template.findResources('AWS::Lambda::Function', { Properties: { Timeout: 10, MemorySize: 512 } });

    for (const route of routes.filter((route) => !route.streaming && !route.waitsSeconds)) {
      expect(routeFunctions, `${route.method} ${route.path}`).toHaveProperty(functionIdFor(template, route));
    }
  });

  it('gives a route that waits (a worker claim) time for its wait, under the gateway 29 s, and a small memory that waiting costs little in', () => {
    const waiting = routes.filter((route) => route.waitsSeconds);
    expect(waiting.map((route) => `${route.method} ${route.path}`)).toEqual(['POST /agents/{agent_id}/claims']);
    for (const route of waiting) {
      const fn = template.findResources('AWS::Lambda::Function')[functionIdFor(template, route)] as CfnResource;
      expect(fn.Properties.Timeout).toBeGreaterThan(route.waitsSeconds!);
      expect(fn.Properties.Timeout).toBeLessThan(29);
      expect(fn.Properties.MemorySize).toBe(256);
    }
  });

  it.each(consumers.map((consumer) => [consumer.name, consumer] as const))('sizes the %s from its consumer definition', (_, consumer) => {
    const fn = template.findResources('AWS::Lambda::Function')[consumerId(template, consumer)] as CfnResource;

    expect(fn.Properties).toMatchObject({ Timeout: consumer.timeoutSeconds, MemorySize: consumer.memoryMb });
  });

  it('hands task queue URLs only to functions that dispatch tasks', () => {
    const dispatchers = new Set(declaredFunctions(template).filter(({ access }) => access.dispatchTasks).map(({ id }) => id));
    const functions = serviceFunctions(template);

    expect(dispatchers.size).toBeGreaterThan(0);
    for (const [id, fn] of Object.entries(functions)) {
      const variables = Object.keys(fn.Properties.Environment.Variables);
      if (dispatchers.has(id)) expect(variables).toEqual(expect.arrayContaining(QUEUE_URL_ENVS));
      else expect(variables.filter((name) => QUEUE_URL_ENVS.includes(name))).toEqual([]);
    }
  });

  it('backs the request authorizer with the authorizer function', () => {
    const authorizers = Object.values(template.findResources('AWS::ApiGateway::Authorizer')) as CfnResource[];
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;
    const routeFunctionIds = new Set(routes.map((route) => functionIdFor(template, route)));

    expect(authorizers).toHaveLength(1);
    const authorizerId = getAttTarget(authorizers[0].Properties.AuthorizerUri) ?? '';
    expect(functions).toHaveProperty(authorizerId);
    expect(routeFunctionIds.has(authorizerId)).toBe(false);
    expect(authorizers[0].Properties.AuthorizerResultTtlInSeconds).toBe(authorizer.cacheTtlSeconds);
  });

  it('grants every access flag the declarations use: synth warns gatehouse:unbound-access nowhere', () => {
    expect(Annotations.fromStack(synthGatehouseStack()).findWarning('*', UNBOUND_ACCESS)).toEqual([]);
  });

  it('refuses a handler file that does not exist, even when synth skips bundling', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Missing');

    expect(() => new GatehouseFunction(stack, 'Missing', { handlerFile: 'functions/missing/no-such-handler.ts', timeout: Duration.seconds(3) })).toThrow(/functions\/missing\/no-such-handler\.ts does not exist/);
  });

  // A stack of its own, outside the shared synth: constructing it can take a while on a busy machine.
  it('still warns gatehouse:unbound-access for a flag bindData does not grant (so the check above can fail)', () => {
    const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Probe');
    const fn = new GatehouseFunction(stack, 'Probe', { handlerFile: routes[0].handler, timeout: Duration.seconds(3) });

    fn.bindData({ table: 'none', teleport: true } as AccessDeclaration, {} as DataResources);

    const warnings = Annotations.fromStack(stack).findWarning('*', UNBOUND_ACCESS);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0].entry.data)).toContain('teleport');
  }, 120_000);
});
