import { Capture, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { synthGatehouse } from './synth';
import { actionsOf, functionIdFor, getAttTarget, roleStatements, workerId, type CfnResource } from './template-queries';

const TABLE_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const readRoutes = routes.filter((route) => route.access.table === 'read');
const writeRoutes = routes.filter((route) => route.access.table === 'read_write');

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

    expect(new Set(roles).size).toBe(routes.length + 2);
  });

  it.each(readRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('lets %s read the table but never write it', (_, route) => {
    const actions = actionsOf(statementsOf(functionIdFor(template, route)));

    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    expect(actions.filter((action) => TABLE_WRITES.includes(action))).toEqual([]);
  });

  it.each(routes.filter((route) => route.access.table === 'none').map((route) => [`${route.method} ${route.path}`, route] as const))('gives %s no table access and no table name', (_, route) => {
    const functionId = functionIdFor(template, route);

    expect(actionsOf(statementsOf(functionId)).filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
    expect(template.toJSON().Resources[functionId].Properties.Environment?.Variables?.TABLE_NAME).toBeUndefined();
  });

  it.each(writeRoutes.map((route) => [`${route.method} ${route.path}`, route] as const))('lets %s write the table', (_, route) => {
    expect(actionsOf(statementsOf(functionIdFor(template, route)))).toEqual(expect.arrayContaining(TABLE_WRITES));
  });

  it('lets only the create-task function send to the queues, and only to the task queues', () => {
    const dispatchRoutes = routes.filter((route) => route.access.dispatchTasks);
    const dispatchers = dispatchRoutes.map((route) => functionIdFor(template, route));
    const queues = template.findResources('AWS::SQS::Queue') as Record<string, CfnResource>;
    const taskQueueIds = Object.keys(queues).filter((id) => queues[id].Properties.RedrivePolicy);

    const senders = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => actionsOf(statementsOf(id)).includes('sqs:SendMessage'));
    expect(dispatchRoutes.map((route) => route.handler)).toEqual(['functions/tasks/create-task.ts']);
    expect(senders).toEqual(dispatchers);

    const sendStatement = statementsOf(dispatchers[0]).find((statement) => actionsOf([statement]).includes('sqs:SendMessage'));
    expect([sendStatement?.Resource].flat().map(getAttTarget).sort()).toEqual(taskQueueIds.sort());
  });

  it('lets the worker consume the task queues and write the table, but not send tasks', () => {
    const actions = actionsOf(statementsOf(workerId(template)));

    expect(actions).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', ...TABLE_WRITES]));
    expect(actions).not.toContain('sqs:SendMessage');
  });

  it('scopes every DynamoDB statement to the table and its indexes, never "*"', () => {
    const statements = Object.keys(template.findResources('AWS::Lambda::Function')).flatMap(statementsOf);
    const dynamoStatements = statements.filter((statement) => actionsOf([statement]).some((action) => action.startsWith('dynamodb:')));

    expect(dynamoStatements).toHaveLength(routes.filter((route) => route.access.table !== 'none').length + 2);
    for (const statement of dynamoStatements) {
      const resources = [statement.Resource].flat();
      expect(resources).not.toContain('*');
      for (const resource of resources) expect(getAttTarget(resource)).toBe(tableId);
    }
  });
});
