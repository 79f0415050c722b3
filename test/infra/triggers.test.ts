import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TASK_QUEUES, TOOL_CALL_QUEUE, eventTriggerConsumer, scheduleTargetAccess } from '#shared/config/topology';
import { synthGatehouse } from './synth';
import { actionsOf, eventTriggerConsumerId, getAttTarget, idAtPath, queueIdFor, roleStatements, scheduleTargetId, streamMappings, tableId, type CfnResource } from './template-queries';

describe('triggers on AWS', () => {
  let template: Template;
  const resource = (type: string, id: string) => template.findResources(type)[id] as CfnResource;
  const sendTargets = (id: string) =>
    roleStatements(template, id)
      .filter((statement) => actionsOf([statement]).includes('sqs:SendMessage'))
      .flatMap(({ Resource }) => [Resource].flat().map(getAttTarget));
  const taskQueues = () => Object.values(TASK_QUEUES).map((queue) => queueIdFor(template, queue.name));

  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  describe('event triggers: their own filtered mapping of the table stream', () => {
    let mapping: CfnResource;
    beforeAll(() => {
      [mapping] = streamMappings(template).filter(({ Properties }) => Properties.FunctionName.Ref === eventTriggerConsumerId(template));
    });

    it('invokes the consumer for inserted artifact and approval events and inserted chat replies only', () => {
      expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId(template), 'StreamArn'] });
      // Lambda invokes for a record that matches either pattern.
      expect(mapping.Properties.FilterCriteria.Filters.map(({ Pattern }: { Pattern: string }) => JSON.parse(Pattern))).toEqual([
        { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['event'] }, type: { S: ['artifact.emitted', 'approval.requested', 'approval.resolved'] } } } },
        { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['chat_reply'] } } } },
      ]);
    });

    it('retries a failing batch in place, reports records one by one, and sends what it gives up on to its failure queue', () => {
      const failures = idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/EventTriggers/Failures/Resource');
      expect(mapping.Properties).toMatchObject({ StartingPosition: 'TRIM_HORIZON', BatchSize: eventTriggerConsumer.batchSize, FunctionResponseTypes: ['ReportBatchItemFailures'], BisectBatchOnFunctionError: true });
      expect(getAttTarget(mapping.Properties.DestinationConfig.OnFailure.Destination)).toBe(failures);
      expect(resource('AWS::SQS::Queue', failures).Properties.MessageRetentionPeriod).toBe(14 * 24 * 60 * 60);
    });

    it('may send to the task queues and the tool-call queue (chat notices for the tool proxy), and nothing else', () => {
      const id = eventTriggerConsumerId(template);
      expect(resource('AWS::Lambda::Function', id).Properties).toMatchObject({ Timeout: eventTriggerConsumer.timeoutSeconds, MemorySize: eventTriggerConsumer.memoryMb });
      const failures = idAtPath(template, 'AWS::SQS::Queue', 'Gatehouse/EventTriggers/Failures/Resource');
      expect(new Set(sendTargets(id))).toEqual(new Set([...taskQueues(), queueIdFor(template, TOOL_CALL_QUEUE.name), failures]));
      expect(actionsOf(roleStatements(template, id)).some((action) => action.startsWith('scheduler:'))).toBe(false);
    });
  });

  describe('schedule triggers: the trigger-fire target', () => {
    it('runs the fire handler with the access it declares: the table, the task queues and schedules', () => {
      const id = scheduleTargetId(template, 'trigger-fire');
      const fn = resource('AWS::Lambda::Function', id);
      expect(fn.Metadata?.['aws:cdk:path']).toBe('Gatehouse/ScheduleTargets/FireScheduledTrigger/Resource');
      expect(scheduleTargetAccess['trigger-fire']).toEqual({ table: 'read_write', dispatchTasks: true, schedules: true });
      expect(new Set(sendTargets(id))).toEqual(new Set(taskQueues()));
      expect(actionsOf(roleStatements(template, id))).toEqual(expect.arrayContaining(['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule', 'dynamodb:UpdateItem']));
      expect(fn.Properties.Environment.Variables).toMatchObject({ SCHEDULER_BACKEND: 'eventbridge' });
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['SCHEDULE_TARGET_ARN_TRIGGER_FIRE', 'SCHEDULE_GROUP_NAME', 'SCHEDULER_ROLE_ARN']));
    });
  });
});
