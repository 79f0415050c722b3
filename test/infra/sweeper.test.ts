import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { recurringJobs, stuckWorkSweeper } from '#shared/config/topology';
import { rateExpression } from '#lib/constructs/recurring-jobs';
import { synthGatehouse } from './synth';
import { actionsOf, getAttTarget, recurringJobId, roleStatements, type CfnResource, type PolicyStatement } from './template-queries';

describe('the stuck-work sweeper on its recurring schedule', () => {
  let template: Template;
  let sweeperId: string;
  const schedules = () => Object.values(template.findResources('AWS::Scheduler::Schedule')) as CfnResource[];
  const sweeperSchedule = () => {
    const found = schedules().filter(({ Properties }) => getAttTarget(Properties.Target.Arn) === sweeperId);
    expect(found).toHaveLength(1);
    return found[0];
  };

  beforeAll(() => {
    template = synthGatehouse();
    sweeperId = recurringJobId(template, stuckWorkSweeper.handler);
  }, 120_000);

  it('declares the sweeper once, as a recurring job of the topology, every minute', () => {
    expect(recurringJobs).toContain(stuckWorkSweeper);
    expect(rateExpression(stuckWorkSweeper.rateMinutes)).toBe('rate(1 minute)');
    expect(rateExpression(5)).toBe('rate(5 minutes)');
  });

  it('runs the sweeper function at the declared rate, on time, in the service schedule group, without retries', () => {
    const schedule = sweeperSchedule();
    const groups = Object.keys(template.findResources('AWS::Scheduler::ScheduleGroup'));

    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: rateExpression(stuckWorkSweeper.rateMinutes),
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      GroupName: { Ref: groups[0] },
      Target: { RetryPolicy: { MaximumRetryAttempts: 0 } },
    });
    expect(groups).toHaveLength(1);
  });

  it('sizes the function from its definition and turns off Lambda async retries', () => {
    const fn = template.findResources('AWS::Lambda::Function')[sweeperId] as CfnResource;

    expect(fn.Properties).toMatchObject({ Timeout: stuckWorkSweeper.timeoutSeconds, MemorySize: stuckWorkSweeper.memoryMb, Handler: 'index.handler' });
    expect(stuckWorkSweeper.timeoutSeconds).toBeLessThan(stuckWorkSweeper.rateMinutes * 60);
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: sweeperId }, MaximumRetryAttempts: 0 });
  });

  it('invokes through a role of its own that only EventBridge Scheduler of this account and group may assume, and that may invoke only the sweeper', () => {
    const roleId = getAttTarget(sweeperSchedule().Properties.Target.RoleArn)!;
    const role = template.findResources('AWS::IAM::Role')[roleId] as CfnResource;
    const groupId = Object.keys(template.findResources('AWS::Scheduler::ScheduleGroup'))[0];

    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': { 'Fn::GetAtt': [groupId, 'Arn'] } } },
      },
    ]);
    const policies = (Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[]).filter(({ Properties }) => (Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId));
    const statements = policies.flatMap(({ Properties }) => Properties.PolicyDocument.Statement as PolicyStatement[]);
    expect(statements).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { 'Fn::GetAtt': [sweeperId, 'Arn'] } }]);
  });

  it('lets the sweeper write the table and send tasks, detector runs and tool calls, and nothing else', () => {
    const actions = actionsOf(roleStatements(template, sweeperId));

    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem', 'sqs:SendMessage']));
    expect(actions.filter((action) => action.startsWith('ses:') || action.startsWith('scheduler:') || action === 'sqs:ReceiveMessage')).toEqual([]);
    // KMS only on the data key (the table and queues are encrypted under it), never the secrets key.
    const kmsResources = roleStatements(template, sweeperId)
      .filter((statement) => [statement.Action].flat().some((action) => String(action).startsWith('kms:')))
      .map((statement) => JSON.stringify(statement.Resource));
    const dataKey = Object.keys(template.findResources('AWS::KMS::Key')).find((id) => id.startsWith('KeysData'));
    expect(dataKey).toBeDefined();
    expect(kmsResources.length).toBeGreaterThan(0);
    expect(kmsResources.every((resource) => resource.includes(dataKey!))).toBe(true);
    const environment = Object.keys((template.findResources('AWS::Lambda::Function')[sweeperId] as CfnResource).Properties.Environment.Variables);
    expect(environment).toEqual(expect.arrayContaining(['TABLE_NAME', 'TASK_QUEUE_URL_HIGH', 'SCAN_DETECTOR_QUEUE_URL', 'TOOL_CALL_QUEUE_URL']));
  });
});
