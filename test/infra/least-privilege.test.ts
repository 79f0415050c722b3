import { Capture, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { TASK_QUEUES, TOOL_CALL_QUEUE, WEBHOOK_DELIVERY_QUEUE, SCAN_DETECTOR_QUEUE, RETENTION_QUEUE, allQueues, consumers } from '#shared/config/topology';
import { RATE_LIMIT_PARTITION_PREFIX } from '#shared/adapters/dynamodb/keys';
import { synthGatehouse } from './synth';
import {
  actionsOf,
  DECLARED_FUNCTION_COUNT,
  declaredFunctions,
  functionIdFor,
  getAttTarget,
  queueIdFor,
  roleStatements,
  streamMappings,
  workerId,
  type CfnResource,
  type PolicyStatement,
} from './template-queries';

const TABLE_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const readRoutes = routes.filter((route) => route.access.table === 'read');
const writeRoutes = routes.filter((route) => route.access.table === 'read_write');

/** The one write a read-only route may make: its tenant's request budget (`RATELIMIT#…` partitions). */
const isBudgetWrite = (statement: PolicyStatement & { Condition?: unknown }) => statement.Condition !== undefined && actionsOf([statement]).every((action) => action === 'dynamodb:UpdateItem');
/** The other: storing the page cursor secret once (the `PAGECURSOR` partition), shared/adapters/crypto/page-cursor-key.ts. */
const isPageCursorSecretWrite = (statement: PolicyStatement & { Condition?: unknown }) =>
  JSON.stringify(statement.Condition ?? null) === JSON.stringify({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['PAGECURSOR'] } }) && actionsOf([statement]).every((action) => action === 'dynamodb:PutItem');

describe('least privilege', () => {
  let template: Template;
  let tableId: string;
  const statementsOf = (functionId: string) => roleStatements(template, functionId);

  beforeAll(() => {
    template = synthGatehouse();
    tableId = Object.keys(template.findResources('AWS::DynamoDB::GlobalTable'))[0];
  }, 120_000);

  it('gives every function a role of its own', () => {
    const role = new Capture();

    template.allResourcesProperties('AWS::Lambda::Function', { Role: { 'Fn::GetAtt': [role, 'Arn'] } });
    const roles: string[] = [];
    do roles.push(role.asString());
    while (role.next());

    // Each of CDK's two deploy-time providers has a role of its own too.
    expect(new Set(roles).size).toBe(DECLARED_FUNCTION_COUNT + 2);
  });

  it.each(readRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('lets %s read the table but write nothing except its request budget', (_, route) => {
    const statements = statementsOf(functionIdFor(template, route));
    const actions = actionsOf(statements.filter((statement) => !isBudgetWrite(statement) && !isPageCursorSecretWrite(statement)));

    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    expect(actions.filter((action) => TABLE_WRITES.includes(action))).toEqual([]);
  });

  it.each(readRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('lets %s update only the rate-limit partitions of the table', (_, route) => {
    const budgetWrites = statementsOf(functionIdFor(template, route)).filter(isBudgetWrite);

    expect(budgetWrites).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_LIMIT_PARTITION_PREFIX}*`] } },
      },
    ]);
  });

  it.each(readRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('lets %s put only the page cursor secret’s item', (_, route) => {
    const secretWrites = statementsOf(functionIdFor(template, route)).filter(isPageCursorSecretWrite);

    expect(secretWrites).toEqual([{ Effect: 'Allow', Action: 'dynamodb:PutItem', Resource: { 'Fn::GetAtt': [tableId, 'Arn'] }, Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['PAGECURSOR'] } } }]);
  });

  it('rate-limits every authenticated route and nothing else', () => {
    expect(routes.filter((route) => route.access.rateLimit).map((route) => route.path)).toEqual(routes.filter((route) => route.auth !== 'none').map((route) => route.path));
    expect(routes.filter((route) => route.auth === 'none').every((route) => !route.access.rateLimit)).toBe(true);
  });

  it.each(routes.filter((route) => route.access.table === 'none').map((route) => [`${route.method} ${route.path}`, route] as const))('gives %s no table access and no table name', (_, route) => {
    const functionId = functionIdFor(template, route);

    expect(actionsOf(statementsOf(functionId)).filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    expect(template.toJSON().Resources[functionId].Properties.Environment?.Variables?.TABLE_NAME).toBeUndefined();
  });

  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('lets %s write the table', (_, route) => {
    expect(actionsOf(statementsOf(functionIdFor(template, route)))).toEqual(expect.arrayContaining(TABLE_WRITES));
  });

  it('lets a function send only to the queues its access declares, its own dead letters and its failure destinations', () => {
    const taskQueueIds = Object.values(TASK_QUEUES).map((queue) => queueIdFor(template, queue.name));
    const toolCallQueueId = queueIdFor(template, TOOL_CALL_QUEUE.name);
    const deliveryQueueId = queueIdFor(template, WEBHOOK_DELIVERY_QUEUE.name);
    const scanQueueId = queueIdFor(template, SCAN_DETECTOR_QUEUE.name);
    const retentionQueueId = queueIdFor(template, RETENTION_QUEUE.name);
    const functions = declaredFunctions(template);
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as CfnResource[];
    /** Where Lambda sends the batches a function's event sources give up on (it sends with the function's role). */
    const eventInvokeConfigs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig')) as CfnResource[];
    const failureDestinations = (id: string) => [
      ...mappings.filter(({ Properties }) => Properties.FunctionName.Ref === id).flatMap(({ Properties }) => (Properties.DestinationConfig?.OnFailure ? [getAttTarget(Properties.DestinationConfig.OnFailure.Destination)] : [])),
      // Asynchronous invocations (SES's) that fail after Lambda's retries go to the function's own destination.
      ...eventInvokeConfigs.filter(({ Properties }) => Properties.FunctionName.Ref === id).flatMap(({ Properties }) => (Properties.DestinationConfig?.OnFailure ? [getAttTarget(Properties.DestinationConfig.OnFailure.Destination)] : [])),
    ];
    /** Consumers of a queue whose definition has `deadLetterUrlEnv` dead-letter into its DLQ themselves. */
    const ownDeadLetters = (name: string) =>
      consumers
        .filter((consumer) => consumer.name === name)
        .flatMap((consumer) => consumer.queues.filter((queue) => allQueues.some((definition) => definition.name === queue && definition.deadLetterUrlEnv)))
        .map((queue) => queueIdFor(template, `${queue}-dlq`));

    for (const flag of ['dispatchTasks', 'dispatchToolCalls', 'dispatchDeliveries', 'dispatchScans', 'dispatchRetention'] as const) expect(functions.filter(({ access }) => (access as unknown as Record<string, unknown>)[flag]).length, flag).toBeGreaterThan(0);
    expect(streamMappings(template).length).toBeGreaterThan(0);
    for (const { name, id, access } of functions) {
      const sendStatements = statementsOf(id).filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'));
      const targets = sendStatements.flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));
      const expected = [
        ...(access.dispatchTasks ? taskQueueIds : []),
        ...(access.dispatchToolCalls ? [toolCallQueueId] : []),
        ...(access.dispatchDeliveries ? [deliveryQueueId] : []),
        ...('dispatchScans' in access && access.dispatchScans ? [scanQueueId] : []),
        ...(access.dispatchRetention ? [retentionQueueId] : []),
        ...ownDeadLetters(name),
        ...failureDestinations(id),
      ];
      expect(targets.sort(), name).toEqual(expected.sort());
    }
  });

  it('lets the worker consume the task queues and write the table, and send only to the task queues (deferrals)', () => {
    const statements = statementsOf(workerId(template));
    const sendTargets = statements.filter((statement) => actionsOf([statement]).includes('sqs:SendMessage')).flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));

    expect(actionsOf(statements)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', ...TABLE_WRITES]));
    expect(sendTargets.sort()).toEqual(Object.values(TASK_QUEUES).map((queue) => queueIdFor(template, queue.name)).sort());
  });

  it('scopes every DynamoDB statement to the table, its indexes or its stream, never "*"', () => {
    const statements = Object.keys(template.findResources('AWS::Lambda::Function')).flatMap(statementsOf);
    const dynamoStatements = statements.filter((statement) => actionsOf([statement]).some((action) => action.startsWith('dynamodb:')));
    const streamReaders = new Set(streamMappings(template).map(({ Properties }) => Properties.FunctionName.Ref));

    // One statement per function with table access, one on the stream per stream reader, and the
    // request-budget write of each read-only route and the page cursor secret's write of each read-only function.
    const readOnly = declaredFunctions(template).filter(({ access }) => access.table === 'read').length;
    expect(dynamoStatements).toHaveLength(declaredFunctions(template).filter(({ access }) => access.table !== 'none').length + streamReaders.size + readRoutes.length + readOnly);
    for (const statement of dynamoStatements) {
      const resources = [statement.Resource].flat();
      expect(resources).not.toContain('*');
      for (const resource of resources) expect(getAttTarget(resource)).toBe(tableId);
    }
  });
});
