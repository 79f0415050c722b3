import { Capture, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizer, routes } from '#functions/routes';
import { TASK_QUEUES, taskWorker } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import { functionIdFor, getAttTarget, workerId, type CfnResource } from './template-queries';

const QUEUE_URL_ENVS = Object.values(TASK_QUEUES).map((queue) => queue.urlEnv);

describe('Lambda functions', () => {
  let template: Template;
  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('creates one function per route, plus the authorizer and the task worker', () => {
    template.resourceCountIs('AWS::Lambda::Function', routes.length + 2);
  });

  it('gives every function our defaults: Node 22 on arm64, X-Ray, ESM handler, source maps', () => {
    const functions = template.findResources('AWS::Lambda::Function');

    for (const fn of Object.values(functions)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Handler: 'index.handler',
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      });
    }
  });

  it('logs every function to its own log group that expires after a month', () => {
    const logGroup = new Capture();
    const monthLong = template.findResources('AWS::Logs::LogGroup', { Properties: { RetentionInDays: 30 } });

    template.allResourcesProperties('AWS::Lambda::Function', { LoggingConfig: { LogGroup: { Ref: logGroup } } });
    const used: string[] = [];
    do used.push(logGroup.asString());
    while (logGroup.next());

    expect(used).toHaveLength(routes.length + 2);
    expect(new Set(used).size).toBe(used.length);
    for (const id of used) expect(monthLong).toHaveProperty(id);
  });

  it('gives API handlers 10 s and 512 MB, below the gateway 29 s limit', () => {
    const routeFunctions = template.findResources('AWS::Lambda::Function', { Properties: { Timeout: 10, MemorySize: 512 } });

    for (const route of routes.filter((route) => !route.streaming)) {
      expect(routeFunctions, `${route.method} ${route.path}`).toHaveProperty(functionIdFor(template, route));
    }
  });

  it('sizes the worker from the consumer definition', () => {
    const worker = template.findResources('AWS::Lambda::Function')[workerId(template)] as CfnResource;

    expect(worker.Properties).toMatchObject({ Timeout: taskWorker.timeoutSeconds, MemorySize: taskWorker.memoryMb });
  });

  it('hands queue URLs only to functions that dispatch tasks', () => {
    const dispatchers = new Set(routes.filter((route) => route.access.dispatchTasks).map((route) => functionIdFor(template, route)));
    const functions = template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>;

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
});
