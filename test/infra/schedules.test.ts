import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { GatehouseFunction, REPO_ROOT } from '#lib/constructs/gatehouse-function';
import { Schedules } from '#lib/constructs/schedules';
import { actionsOf, roleStatements, type CfnResource, type PolicyStatement } from './template-queries';

const STACK_NAME = 'SchedulesTest';
const GROUP_NAME = `${STACK_NAME}-schedules`;
// Any existing handler file does: synth checks the entry exists but skips bundling.
const DUMMY_HANDLER = 'test/support/recording-schedule-target.ts';

/** A stack with the Schedules construct, one target and two callers, synthesized as synth.ts does (no bundling). */
function synthSchedulesStack(): Template {
  const cdkContext: Record<string, unknown> = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')).context;
  const app = new App({
    builtinCloudFormationValidation: false,
    context: { ...cdkContext, 'aws:cdk:enable-path-metadata': true, 'aws:cdk:bundling-stacks': [] },
  });
  const stack = new Stack(app, STACK_NAME);
  const fn = (id: string) => new GatehouseFunction(stack, id, { handlerFile: DUMMY_HANDLER, timeout: Duration.seconds(10) });
  const expireApproval = fn('ExpireApproval');
  const requestApproval = fn('RequestApproval');
  const resolveApproval = fn('ResolveApproval');
  fn('Bystander');

  const schedules = new Schedules(stack, 'Schedules');
  const closeIdleSession = fn('CloseIdleSession');
  const fireTrigger = fn('FireTrigger');
  const targets = { 'approval-expiry': expireApproval, 'session-idle-close': closeIdleSession, 'trigger-fire': fireTrigger };
  schedules.grantScheduling(requestApproval, targets);
  schedules.grantScheduling(resolveApproval, targets);
  return Template.fromStack(stack);
}

describe('Schedules construct', () => {
  let template: Template;
  const functionId = (name: string) => {
    const ids = Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>)
      .filter(([, resource]) => resource.Metadata?.['aws:cdk:path'] === `${STACK_NAME}/${name}/Resource`)
      .map(([id]) => id);
    expect(ids).toHaveLength(1);
    return ids[0];
  };
  const groupId = () => Object.keys(template.findResources('AWS::Scheduler::ScheduleGroup'))[0];
  const roleId = () => {
    const roles = template.findResources('AWS::IAM::Role', {
      Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })] } },
    });
    expect(Object.keys(roles)).toHaveLength(1);
    return Object.keys(roles)[0];
  };
  const schedulingStatements = (name: string): PolicyStatement[] =>
    roleStatements(template, functionId(name)).filter((statement) => actionsOf([statement]).some((action) => action.startsWith('scheduler:') || action === 'iam:PassRole'));

  beforeAll(() => {
    template = synthSchedulesStack();
  }, 120_000);

  it('creates one schedule group named after the stack', () => {
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: GROUP_NAME });
  });

  it('lets only EventBridge Scheduler, for this account and group, assume the invoke role', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: 'sts:AssumeRole',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': { 'Fn::GetAtt': [groupId(), 'Arn'] } } },
          },
        ],
      },
    });
  });

  it('lets the invoke role do one thing: invoke the target function', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, CfnResource>).filter(({ Properties }) =>
      (Properties.Roles as { Ref: string }[]).some((role) => role.Ref === roleId()),
    );
    const statements = policies.flatMap(({ Properties }) => Properties.PolicyDocument.Statement as PolicyStatement[]);

    expect(template.findResources('AWS::IAM::Role')[roleId()].Properties.ManagedPolicyArns).toBeUndefined();
    expect(statements[0].Resource).toHaveLength(3);
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: 'lambda:InvokeFunction',
        Resource: expect.arrayContaining(['ExpireApproval', 'CloseIdleSession', 'FireTrigger'].map((name) => ({ 'Fn::GetAtt': [functionId(name), 'Arn'] }))),
      },
    ]);
  });

  it.each(['RequestApproval', 'ResolveApproval'])('gives the %s caller the environment of the EventBridge adapter', (name) => {
    const variables = template.findResources('AWS::Lambda::Function')[functionId(name)].Properties.Environment.Variables;

    expect(variables).toMatchObject({
      SCHEDULER_BACKEND: 'eventbridge',
      SCHEDULE_GROUP_NAME: { Ref: groupId() },
      SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [roleId(), 'Arn'] },
      SCHEDULE_TARGET_ARN_APPROVAL_EXPIRY: { 'Fn::GetAtt': [functionId('ExpireApproval'), 'Arn'] },
    });
  });

  it.each(['RequestApproval', 'ResolveApproval'])('lets the %s caller create and delete schedules of the group only, and pass only the invoke role', (name) => {
    const statements = schedulingStatements(name);

    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule'],
        Resource: {
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:schedule/${GROUP_NAME}/*`]],
        },
      },
      {
        Effect: 'Allow',
        Action: 'iam:PassRole',
        Resource: { 'Fn::GetAtt': [roleId(), 'Arn'] },
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      },
    ]);
    expect(JSON.stringify(statements)).not.toContain('"*"');
  });

  it('gives functions that do not schedule neither the environment nor scheduler permissions', () => {
    for (const name of ['Bystander', 'ExpireApproval']) {
      expect(template.findResources('AWS::Lambda::Function')[functionId(name)].Properties.Environment.Variables.SCHEDULER_BACKEND).toBeUndefined();
      expect(schedulingStatements(name)).toEqual([]);
    }
  });

});
