import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes';
import { SCHEDULER_ENV, targetArnEnv } from '#shared/adapters/scheduler/environment';
import { TASK_QUEUES, TOOL_CALL_QUEUE, VISIBILITY_TIMEOUT_FACTOR, scheduleTargetAccess, taskWorker, toolProxy, visibilityTimeoutSeconds } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import {
  actionsOf,
  consumerId,
  dataKeyId,
  declaredFunctions,
  getAttTarget,
  queueIdFor,
  roleStatements,
  scheduleTargetId,
  workerId,
  type CfnResource,
  type DeclaredFunction,
  type PolicyStatement,
} from './template-queries';

const FOURTEEN_DAYS = 14 * 24 * 60 * 60;
const SCHEDULER_SERVICE = 'scheduler.amazonaws.com';
const GROUP_NAME = 'Gatehouse-schedules';
const SCHEDULING_ACTIONS = ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule'];
const MAIL_ENVS = ['MAILER_BACKEND', 'MAIL_FROM'];
/** `arn:${Partition}:<service>:${Region}:${AccountId}<resource...>`, as `Stack.formatArn` renders it. */
const arnOf = (service: string, ...resource: unknown[]) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:${service}:`, { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ...resource]],
});
const resolveRoute = routes.find((route) => route.path === '/approvals/{approval_id}/resolve');

describe('approvals', () => {
  let template: Template;
  let functions: DeclaredFunction[];
  const fnProperties = (id: string) => (template.findResources('AWS::Lambda::Function')[id] as CfnResource).Properties;
  const variablesOf = (id: string): Record<string, unknown> => fnProperties(id).Environment.Variables;
  /** The role one-time schedules run with (recurring jobs have roles of their own, see sweeper.test.ts). */
  const schedulerRoleId = () => {
    const roles = template.findResources('AWS::IAM::Role', {
      Properties: { AssumeRolePolicyDocument: { Statement: [Match.objectLike({ Principal: { Service: SCHEDULER_SERVICE } })] } },
    });
    const oneTime = Object.keys(roles).filter((id) => (roles[id] as CfnResource).Metadata?.['aws:cdk:path'] === 'Gatehouse/Schedules/InvokeRole/Resource');
    expect(oneTime).toHaveLength(1);
    return oneTime[0];
  };
  /** Every statement of every IAM policy in the template, by the role it is attached to. */
  const statementsByRole = () => {
    const byRole = new Map<string, PolicyStatement[]>();
    for (const { Properties } of Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[]) {
      for (const role of Properties.Roles as { Ref: string }[]) {
        byRole.set(role.Ref, [...(byRole.get(role.Ref) ?? []), ...(Properties.PolicyDocument.Statement as PolicyStatement[])]);
      }
    }
    return byRole;
  };

  beforeAll(() => {
    template = synthGatehouse();
    functions = declaredFunctions(template);
  }, 120_000);

  describe('tool-call queue', () => {
    it('redrives to its own dead-letter queue after maxReceiveCount, which keeps dead letters 14 days', () => {
      const queue = template.findResources('AWS::SQS::Queue')[queueIdFor(template, TOOL_CALL_QUEUE.name)] as CfnResource;
      const deadLetterQueue = template.findResources('AWS::SQS::Queue')[queueIdFor(template, `${TOOL_CALL_QUEUE.name}-dlq`)] as CfnResource;

      expect(queue.Properties.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [queueIdFor(template, `${TOOL_CALL_QUEUE.name}-dlq`), 'Arn'] },
        maxReceiveCount: TOOL_CALL_QUEUE.maxReceiveCount,
      });
      expect(deadLetterQueue.Properties.MessageRetentionPeriod).toBe(FOURTEEN_DAYS);
    });

    it('hides a received message for at least six tool-proxy timeouts', () => {
      const queue = template.findResources('AWS::SQS::Queue')[queueIdFor(template, TOOL_CALL_QUEUE.name)] as CfnResource;

      expect(queue.Properties.VisibilityTimeout).toBe(visibilityTimeoutSeconds(TOOL_CALL_QUEUE.name));
      expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * toolProxy.timeoutSeconds);
    });

    it.each([TOOL_CALL_QUEUE.name, `${TOOL_CALL_QUEUE.name}-dlq`])('encrypts %s with the data key and denies access without TLS', (name) => {
      const id = queueIdFor(template, name);

      expect((template.findResources('AWS::SQS::Queue')[id] as CfnResource).Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [dataKeyId(template), 'Arn'] });
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    });
  });

  describe('tool proxy', () => {
    it('consumes the tool-call queue, and only it, with its batch size and partial batch failures', () => {
      const proxy = consumerId(template, toolProxy);
      const mappings = (Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as CfnResource[]).filter(({ Properties }) => Properties.FunctionName.Ref === proxy);

      expect(mappings).toHaveLength(1);
      expect(mappings[0].Properties).toMatchObject({
        EventSourceArn: { 'Fn::GetAtt': [queueIdFor(template, TOOL_CALL_QUEUE.name), 'Arn'] },
        BatchSize: toolProxy.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    it('is sized from its consumer definition', () => {
      expect(fnProperties(consumerId(template, toolProxy))).toMatchObject({ Timeout: toolProxy.timeoutSeconds, MemorySize: toolProxy.memoryMb });
    });

    it('sends mail through SES as MailFrom; no other function has a mailer', () => {
      const proxy = consumerId(template, toolProxy);

      expect(toolProxy.access.sendMail).toBe(true);
      expect(variablesOf(proxy)).toMatchObject({ MAILER_BACKEND: 'ses', MAIL_FROM: { Ref: 'MailFrom' } });
      for (const { name, id } of functions.filter(({ id }) => id !== proxy)) {
        expect(Object.keys(variablesOf(id)).filter((variable) => MAIL_ENVS.includes(variable)), name).toEqual([]);
      }
    });

    it('is the only role with any SES action: SendEmail and SendRawEmail, on the MailFromIdentity identity only', () => {
      const proxyRole = getAttTarget(fnProperties(consumerId(template, toolProxy)).Role);
      const sesByRole = [...statementsByRole()].flatMap(([role, statements]) =>
        statements.filter((statement) => actionsOf([statement]).some((action) => action.startsWith('ses:'))).map((statement) => ({ role, statement })),
      );

      expect(sesByRole).toEqual([
        { role: proxyRole, statement: { Effect: 'Allow', Action: ['ses:SendEmail', 'ses:SendRawEmail'], Resource: arnOf('ses', ':identity/', { Ref: 'MailFromIdentity' }) } },
      ]);
      expect(functions.filter(({ access }) => 'sendMail' in access && access.sendMail).map(({ name }) => name)).toEqual([toolProxy.name]);
    });

    it('dispatches tasks (to resume them) and tool calls (an approval resolved in Slack queues its action), and sends nowhere else', () => {
      const proxy = consumerId(template, toolProxy);
      const statements = roleStatements(template, proxy);
      const sendTargets = statements.filter((statement) => actionsOf([statement]).includes('sqs:SendMessage')).flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));
      const toolCallQueue = queueIdFor(template, TOOL_CALL_QUEUE.name);

      expect(actionsOf(statements)).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:SendMessage']));
      expect(sendTargets.sort()).toEqual([...Object.values(TASK_QUEUES).map((queue) => queueIdFor(template, queue.name)), toolCallQueue].sort());
      expect(variablesOf(proxy)[TOOL_CALL_QUEUE.urlEnv]).toEqual({ Ref: toolCallQueue });
    });
  });

  describe('mail parameters', () => {
    it('takes the sender as MailFrom, an SES-verified address with a default', () => {
      const parameter = template.findParameters('MailFrom').MailFrom;

      expect(parameter).toMatchObject({ Type: 'String', Default: 'Gatehouse <no-reply@example.com>' });
      expect(parameter.Description).toMatch(/SES-verified/);
    });

    it('takes the identity that scopes ses:SendEmail as MailFromIdentity, a domain or an address, never a wildcard', () => {
      const parameter = template.findParameters('MailFromIdentity').MailFromIdentity;
      const pattern = new RegExp(`^(?:${parameter.AllowedPattern})$`);

      expect(parameter).toMatchObject({ Type: 'String', Default: 'example.com' });
      for (const valid of ['example.com', 'mail.example.co.uk', 'no-reply@example.com']) expect(pattern.test(valid), valid).toBe(true);
      for (const invalid of ['*', 'example.*', '', 'a b']) expect(pattern.test(invalid), invalid).toBe(false);
    });
  });

  describe('tool-call dispatch', () => {
    it('gives the tool-call queue URL and send permission exactly to the functions whose access says dispatchToolCalls', () => {
      const toolCallQueueId = queueIdFor(template, TOOL_CALL_QUEUE.name);

      expect(resolveRoute?.access.dispatchToolCalls).toBe(true);
      expect(functions.filter(({ access }) => access.dispatchToolCalls).map(({ name }) => name)).toContain('POST /approvals/{approval_id}/resolve');
      for (const { name, id, access } of functions) {
        const sends = roleStatements(template, id).filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'));
        const sendsToolCalls = sends.some(({ Resource }) => [Resource].flat().map(getAttTarget).includes(toolCallQueueId));
        expect(sendsToolCalls, name).toBe(Boolean(access.dispatchToolCalls));
        if (access.dispatchToolCalls) expect(variablesOf(id)[TOOL_CALL_QUEUE.urlEnv], name).toEqual({ Ref: toolCallQueueId });
        else expect(variablesOf(id)[TOOL_CALL_QUEUE.urlEnv], name).toBeUndefined();
      }
    });
  });

  describe('schedules', () => {
    it('lets exactly the functions whose access says schedules create and delete schedules of the group, and pass only the scheduler role', () => {
      const role = schedulerRoleId();
      const schedulers = functions.filter(({ access }) => access.schedules);

      expect(schedulers.map(({ name }) => name)).toEqual(expect.arrayContaining([taskWorker.name, 'approval-expiry', 'POST /approvals/{approval_id}/resolve']));
      for (const { name, id, access } of functions) {
        const statements = roleStatements(template, id).filter((statement) => actionsOf([statement]).some((action) => action.startsWith('scheduler:') || action.startsWith('iam:')));
        if (!access.schedules) {
          expect(statements, name).toEqual([]);
          continue;
        }
        expect(statements, name).toEqual([
          { Effect: 'Allow', Action: SCHEDULING_ACTIONS, Resource: arnOf('scheduler', `:schedule/${GROUP_NAME}/*`) },
          { Effect: 'Allow', Action: 'iam:PassRole', Resource: { 'Fn::GetAtt': [role, 'Arn'] }, Condition: { StringEquals: { 'iam:PassedToService': SCHEDULER_SERVICE } } },
        ]);
      }
    });

    it('gives exactly the functions that schedule the environment of the EventBridge adapter', () => {
      const groupId = Object.keys(template.findResources('AWS::Scheduler::ScheduleGroup'))[0];
      const targetName = fnProperties(scheduleTargetId(template, 'approval-expiry')).FunctionName;

      for (const { name, id, access } of functions) {
        const variables = variablesOf(id);
        if (!access.schedules) {
          expect(Object.keys(variables).filter((variable) => variable.startsWith('SCHEDULE')), name).toEqual([]);
          continue;
        }
        expect(variables, name).toMatchObject({
          [SCHEDULER_ENV.backend]: 'eventbridge',
          [SCHEDULER_ENV.groupName]: { Ref: groupId },
          [SCHEDULER_ENV.roleArn]: { 'Fn::GetAtt': [schedulerRoleId(), 'Arn'] },
          [targetArnEnv('approval-expiry')]: arnOf('lambda', `:function:${targetName}`),
        });
      }
    });

    it('lets the scheduler role invoke the schedule targets (approval expiry, session idle close) and nothing else', () => {
      const role = schedulerRoleId();
      const target = fnProperties(scheduleTargetId(template, 'approval-expiry'));
      const idleClose = fnProperties(scheduleTargetId(template, 'session-idle-close'));
      const fireTrigger = fnProperties(scheduleTargetId(template, 'trigger-fire'));

      expect(template.findResources('AWS::IAM::Role')[role].Properties.ManagedPolicyArns).toBeUndefined();
      expect(target.FunctionName).toBe('Gatehouse-approval-expiry');
      expect(idleClose.FunctionName).toBe('Gatehouse-session-idle-close');
      expect(statementsByRole().get(role)).toEqual([
        {
          Effect: 'Allow',
          Action: 'lambda:InvokeFunction',
          Resource: [target, idleClose, fireTrigger].map((fn) => arnOf('lambda', `:function:${fn.FunctionName}`)),
        },
      ]);
    });
  });

  describe('approval-expiry target', () => {
    it('runs the expire-approval handler with the access scheduleTargetAccess declares', () => {
      const id = scheduleTargetId(template, 'approval-expiry');
      const actions = actionsOf(roleStatements(template, id));
      const taskQueueIds = Object.values(TASK_QUEUES).map((queue) => queueIdFor(template, queue.name));
      const sendTargets = roleStatements(template, id)
        .filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'))
        .flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));

      expect(scheduleTargetAccess['approval-expiry']).toEqual({ table: 'read_write', dispatchTasks: true, schedules: true });
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', ...SCHEDULING_ACTIONS]));
      expect(sendTargets.sort()).toEqual(taskQueueIds.sort());
      expect(Object.keys(variablesOf(id))).toEqual(expect.arrayContaining(['TABLE_NAME', ...Object.values(TASK_QUEUES).map((queue) => queue.urlEnv)]));
    });
  });

  describe('task worker', () => {
    it('has no SES and no credentials: it creates expiry schedules, sends only to the task queues (tasks deferred over a tenant cap), and reaches providers through the tool proxy', () => {
      const statements = roleStatements(template, workerId(template));
      const actions = actionsOf(statements);

      expect(taskWorker.access).toEqual({ table: 'read_write', schedules: true, dispatchTasks: true, taskSlots: true, invokeToolProxy: true });
      expect(actions.filter((action) => action.startsWith('ses:'))).toEqual([]);
      expect(actions).toEqual(expect.arrayContaining(SCHEDULING_ACTIONS));
      expect(statements.filter((statement) => actionsOf([statement]).includes('lambda:InvokeFunction'))).toEqual([
        { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [consumerId(template, toolProxy), 'Arn'] } },
      ]);
      expect(variablesOf(workerId(template)).TOOL_PROXY_FUNCTION_NAME).toEqual({ Ref: consumerId(template, toolProxy) });
    });
  });
});
