import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand, ValidationException } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBridgeScheduler, atExpression, eventBridgeSchedulerConfigFromEnv, type EventBridgeSchedulerConfig } from '#shared/adapters/scheduler/eventbridge-scheduler';
import type { Clock } from '#shared/domain/clock';
import type { OneTimeSchedule } from '#shared/domain/scheduler';

const config: EventBridgeSchedulerConfig = {
  groupName: 'Gatehouse-schedules',
  roleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke',
  targetArns: { 'approval-expiry': 'arn:aws:lambda:eu-west-1:123456789012:function:expire-approval', 'session-idle-close': 'arn:aws:lambda:eu-west-1:123456789012:function:session-idle-close', 'trigger-fire': 'arn:aws:lambda:eu-west-1:123456789012:function:trigger-fire' },
};
const NOW = new Date('2030-05-06T07:08:09.000Z');
const clock: Clock = { now: () => NOW };
const schedulerMock = mockClient(SchedulerClient);

function expiry(at: Date, name = 'approval-expiry-01J0ABC'): OneTimeSchedule {
  return { name, at, target: 'approval-expiry', payload: { tenant_id: 't-1', approval_id: '01J0ABC', expires_at: at.toISOString() } };
}

describe('EventBridge Scheduler adapter', () => {
  let scheduler: EventBridgeScheduler;

  beforeEach(() => {
    schedulerMock.reset();
    scheduler = new EventBridgeScheduler(new SchedulerClient({ region: 'eu-west-1' }), config, clock);
  });

  it('creates a one-time UTC schedule that EventBridge deletes after it ran', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule/Gatehouse-schedules/x' });
    const schedule = expiry(new Date('2030-05-07T10:20:30.000Z'));

    await scheduler.scheduleOnce(schedule);

    const calls = schedulerMock.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      Name: 'approval-expiry-01J0ABC',
      GroupName: 'Gatehouse-schedules',
      ScheduleExpression: 'at(2030-05-07T10:20:30)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: 'arn:aws:lambda:eu-west-1:123456789012:function:expire-approval',
        RoleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke',
        Input: JSON.stringify(schedule.payload),
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
      },
    });
    expect(JSON.parse(calls[0].args[0].input.Target!.Input!)).toEqual(schedule.payload);
  });

  it("creates a schedule trigger's recurring schedule: the cron in EventBridge's six fields, in the trigger's zone, kept after each run", async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({});

    await scheduler.scheduleRecurring({ name: 'trigger-trg_1', cron: '0 8 * * 1-5', timezone: 'Europe/Berlin', start_at: '2030-06-01T00:00:00Z', end_at: '2030-12-31T23:00:00Z', target: 'trigger-fire', payload: { tenant_id: 't-1', trigger_id: 'trg_1' } });

    const input = schedulerMock.commandCalls(CreateScheduleCommand)[0].args[0].input;
    expect(input).toEqual({
      Name: 'trigger-trg_1',
      GroupName: 'Gatehouse-schedules',
      ScheduleExpression: 'cron(0 8 ? * 2-6 *)',
      ScheduleExpressionTimezone: 'Europe/Berlin',
      StartDate: new Date('2030-06-01T00:00:00Z'),
      EndDate: new Date('2030-12-31T23:00:00Z'),
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'NONE',
      Target: {
        Arn: 'arn:aws:lambda:eu-west-1:123456789012:function:trigger-fire',
        RoleArn: 'arn:aws:iam::123456789012:role/scheduler-invoke',
        Input: expect.any(String),
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
      },
    });
    // EventBridge replaces the placeholder with the run's scheduled time.
    expect(JSON.parse(input.Target!.Input!)).toEqual({ tenant_id: 't-1', trigger_id: 'trg_1', scheduled_time: '<aws.scheduler.scheduled-time>' });
  });

  it('replaces a recurring schedule of the same name with UpdateSchedule, whole', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    schedulerMock.on(UpdateScheduleCommand).resolves({});

    await scheduler.scheduleRecurring({ name: 'trigger-trg_1', cron: '*/15 * * * *', timezone: 'UTC', target: 'trigger-fire', payload: { tenant_id: 't-1', trigger_id: 'trg_1' } });

    const created = schedulerMock.commandCalls(CreateScheduleCommand)[0].args[0].input;
    const updated = schedulerMock.commandCalls(UpdateScheduleCommand)[0].args[0].input;
    expect(updated).toEqual(created);
    expect(updated.ScheduleExpression).toBe('cron(0/15 * * * ? *)');
    expect(updated.StartDate).toBeUndefined();
  });

  it('writes the expression in UTC whatever the offset the time was written with', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({});

    await scheduler.scheduleOnce(expiry(new Date('2030-05-07T12:20:30+02:00')));

    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0].args[0].input.ScheduleExpression).toBe('at(2030-05-07T10:20:30)');
  });

  it('rounds a sub-second time up, so the schedule never fires before it', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({});

    await scheduler.scheduleOnce(expiry(new Date('2030-05-07T10:20:30.001Z')));

    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0].args[0].input.ScheduleExpression).toBe('at(2030-05-07T10:20:31)');
  });

  it.each([
    ['in the past', new Date('2030-05-06T06:00:00.000Z')],
    ['now', NOW],
    ['less than five seconds ahead', new Date('2030-05-06T07:08:12.500Z')],
  ])('schedules a time %s five seconds from now, since EventBridge rejects past times', async (_, at) => {
    schedulerMock.on(CreateScheduleCommand).resolves({});

    await scheduler.scheduleOnce(expiry(at));

    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0].args[0].input.ScheduleExpression).toBe('at(2030-05-06T07:08:14)');
  });

  it('rounds now + 5 s up to the second too', () => {
    expect(atExpression(new Date(0), new Date('2030-05-06T07:08:09.250Z'))).toBe('at(2030-05-06T07:08:15)');
  });

  it('treats a conflict (same name already scheduled) as success', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'Schedule approval-expiry-01J0ABC already exists.', Message: 'Schedule approval-expiry-01J0ABC already exists.', $metadata: {} }));

    await expect(scheduler.scheduleOnce(expiry(new Date('2030-05-07T10:20:30.000Z')))).resolves.toBeUndefined();
  });

  it('passes on any other create error', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ValidationException({ message: 'bad', Message: 'bad', $metadata: {} }));

    await expect(scheduler.scheduleOnce(expiry(new Date('2030-05-07T10:20:30.000Z')))).rejects.toThrow(ValidationException);
  });

  it('refuses a name EventBridge would refuse, without calling it', async () => {
    await expect(scheduler.scheduleOnce(expiry(new Date('2030-05-07T10:20:30.000Z'), 'approval/expiry'))).rejects.toThrow(/Invalid schedule name/);
    await expect(scheduler.scheduleOnce(expiry(new Date('2030-05-07T10:20:30.000Z'), 'x'.repeat(65)))).rejects.toThrow(/Invalid schedule name/);

    expect(schedulerMock.calls()).toHaveLength(0);
  });

  it('cancels by deleting the schedule in the group', async () => {
    schedulerMock.on(DeleteScheduleCommand).resolves({});

    await scheduler.cancel('approval-expiry-01J0ABC');

    expect(schedulerMock.commandCalls(DeleteScheduleCommand).map((call) => call.args[0].input)).toEqual([{ Name: 'approval-expiry-01J0ABC', GroupName: 'Gatehouse-schedules' }]);
  });

  it('treats cancelling an absent schedule (already ran or cancelled) as success', async () => {
    schedulerMock.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'Schedule not found.', Message: 'Schedule not found.', $metadata: {} }));

    await expect(scheduler.cancel('approval-expiry-01J0ABC')).resolves.toBeUndefined();
  });

  it('passes on any other delete error', async () => {
    schedulerMock.on(DeleteScheduleCommand).rejects(new ValidationException({ message: 'bad', Message: 'bad', $metadata: {} }));

    await expect(scheduler.cancel('approval-expiry-01J0ABC')).rejects.toThrow(ValidationException);
  });
});

describe('EventBridge Scheduler configuration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads the group, role and target ARNs from the environment the construct sets', () => {
    vi.stubEnv('SCHEDULE_GROUP_NAME', config.groupName);
    vi.stubEnv('SCHEDULER_ROLE_ARN', config.roleArn);
    vi.stubEnv('SCHEDULE_TARGET_ARN_APPROVAL_EXPIRY', config.targetArns['approval-expiry']);
    vi.stubEnv('SCHEDULE_TARGET_ARN_SESSION_IDLE_CLOSE', config.targetArns['session-idle-close']);
    vi.stubEnv('SCHEDULE_TARGET_ARN_TRIGGER_FIRE', config.targetArns['trigger-fire']);

    expect(eventBridgeSchedulerConfigFromEnv()).toEqual(config);
  });

  it('fails fast when a target ARN is missing', () => {
    vi.stubEnv('SCHEDULE_GROUP_NAME', config.groupName);
    vi.stubEnv('SCHEDULER_ROLE_ARN', config.roleArn);
    vi.stubEnv('SCHEDULE_TARGET_ARN_APPROVAL_EXPIRY', '');

    expect(() => eventBridgeSchedulerConfigFromEnv()).toThrow(/SCHEDULE_TARGET_ARN_APPROVAL_EXPIRY/);
  });
});
