import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { GSI3 } from '#shared/adapters/dynamodb/table-definition';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { once } from '#shared/config/env';
import { nextRuns, type ScheduleSpec } from '#shared/domain/cron-schedule';
import { assertScheduleName, assertValidSchedule, type OneTimeSchedule, type RecurringSchedule, type ScheduleTarget, type Scheduler } from '#shared/domain/scheduler';
import { SCHEDULES_DUE_PARTITION, scheduleKeys } from '#shared/adapters/scheduler/schedule-keys';

/** A stored schedule as the local runner sees it. */
export interface StoredSchedule extends OneTimeSchedule {
  /** Failed invocations so far. */
  attempts: number;
}

interface ScheduleItem {
  name: string;
  at: string;
  target: ScheduleTarget;
  payload: Record<string, unknown>;
  attempts?: number;
  claimed_until?: string;
  /** A recurring schedule's cron: after each run the item moves to its next run instead of going. */
  recurring?: ScheduleSpec;
}

/**
 * One-time schedules as items of the single table, for the local runtime: `lib/local/schedule-runner.ts`
 * polls the due-time index (GSI3) and plays EventBridge Scheduler's delivery. The runner-only
 * methods (`dueSchedules`, `claim`, `recordFailure`, `complete`) are not part of the port.
 */
export class TableScheduler implements Scheduler {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async scheduleOnce(schedule: OneTimeSchedule): Promise<void> {
    assertValidSchedule(schedule);
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            ...scheduleKeys.schedule(schedule.name),
            ...scheduleKeys.dueIndex(schedule.at, schedule.name),
            entity: 'schedule',
            name: schedule.name,
            at: schedule.at.toISOString(),
            target: schedule.target,
            payload: schedule.payload,
            attempts: 0,
          },
          // As EventBridge answers a duplicate name with a conflict: the first schedule stands.
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw error;
    }
  }

  /**
   * A recurring schedule as one item at its next run; the runner moves it on after each run
   * (`advance`). Replaces a schedule of the same name, as UpdateSchedule does.
   */
  async scheduleRecurring(schedule: RecurringSchedule, now: Date = new Date()): Promise<void> {
    assertScheduleName(schedule.name);
    const spec: ScheduleSpec = { cron: schedule.cron, timezone: schedule.timezone, ...(schedule.start_at ? { start_at: schedule.start_at } : {}), ...(schedule.end_at ? { end_at: schedule.end_at } : {}) };
    const [next] = nextRuns(spec, now, 1);
    if (!next) {
      await this.cancel(schedule.name);
      return;
    }
    await this.client.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...scheduleKeys.schedule(schedule.name),
          ...scheduleKeys.dueIndex(next, schedule.name),
          entity: 'schedule',
          name: schedule.name,
          at: next.toISOString(),
          target: schedule.target,
          payload: schedule.payload,
          attempts: 0,
          recurring: spec,
        },
      }),
    );
  }

  /** The cron of a recurring schedule (undefined for a one-time one, or one that is gone). */
  async recurrenceOf(name: string): Promise<ScheduleSpec | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.table, Key: scheduleKeys.schedule(name), ConsistentRead: true }));
    return (Item as ScheduleItem | undefined)?.recurring;
  }

  /**
   * Moves a recurring schedule that ran (or was given up on) to its first run after both its last
   * one and `now`: runs missed while nothing ran are not replayed one by one (the trigger runner
   * records them as missed). Gone when the schedule has no run left (past its end).
   */
  async advance(name: string, ranAt: Date, spec: ScheduleSpec, now: Date): Promise<void> {
    const [next] = nextRuns(spec, new Date(Math.max(ranAt.getTime(), now.getTime())), 1);
    if (!next) {
      await this.complete(name);
      return;
    }
    const due = scheduleKeys.dueIndex(next, name);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: scheduleKeys.schedule(name),
          UpdateExpression: 'SET #at = :at, #duePk = :duePk, #dueSk = :dueSk, attempts = :zero REMOVE claimed_until, last_error',
          // Only the run just made: a schedule replaced meanwhile keeps its new time.
          ConditionExpression: '#at = :ranAt',
          ExpressionAttributeNames: { '#at': 'at', '#duePk': GSI3.partitionKey, '#dueSk': GSI3.sortKey },
          ExpressionAttributeValues: { ':at': next.toISOString(), ':duePk': due[GSI3.partitionKey], ':dueSk': due[GSI3.sortKey], ':zero': 0, ':ranAt': ranAt.toISOString() },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async cancel(name: string): Promise<void> {
    assertScheduleName(name);
    await this.client.send(new DeleteCommand({ TableName: this.table, Key: scheduleKeys.schedule(name) }));
  }

  /** Up to `limit` schedules due at `now` that no runner holds a claim on, earliest first. */
  async dueSchedules(now: Date, limit: number): Promise<StoredSchedule[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: GSI3.indexName,
        KeyConditionExpression: '#pk = :due AND #sk < :before',
        FilterExpression: 'attribute_not_exists(claimed_until) OR claimed_until <= :now',
        ExpressionAttributeNames: { '#pk': GSI3.partitionKey, '#sk': GSI3.sortKey },
        ExpressionAttributeValues: { ':due': SCHEDULES_DUE_PARTITION, ':before': scheduleKeys.dueBefore(now), ':now': now.toISOString() },
        Limit: limit,
      }),
    );
    return (Items as ScheduleItem[]).map((item) => ({
      name: item.name,
      at: new Date(item.at),
      target: item.target,
      payload: item.payload,
      attempts: item.attempts ?? 0,
    }));
  }

  /**
   * Takes the schedule for one run until `until`, unless another run holds it. False when it is
   * claimed or gone (cancelled, completed). A crashed run's claim lapses, and the schedule is retried.
   */
  async claim(name: string, now: Date, until: Date): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: scheduleKeys.schedule(name),
          UpdateExpression: 'SET claimed_until = :until',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimed_until) OR claimed_until <= :now)',
          ExpressionAttributeValues: { ':until': until.toISOString(), ':now': now.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Counts a failed run and releases the claim so a later round retries it. Returns the failed
   * attempts so far, or undefined if the schedule was cancelled meanwhile.
   */
  async recordFailure(name: string, error: string): Promise<number | undefined> {
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: scheduleKeys.schedule(name),
          UpdateExpression: 'SET attempts = if_not_exists(attempts, :zero) + :one, last_error = :error REMOVE claimed_until',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':error': error.slice(0, 1_000) },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Attributes?.attempts as number;
    } catch (caught) {
      if (isConditionFailure(caught)) return undefined;
      throw caught;
    }
  }

  /** Deletes a schedule that ran (or was given up on), as EventBridge's ActionAfterCompletion DELETE does. */
  async complete(name: string): Promise<void> {
    await this.client.send(new DeleteCommand({ TableName: this.table, Key: scheduleKeys.schedule(name) }));
  }
}

/** The process's table adapter, on the table named by TABLE_NAME. */
export const tableScheduler = once(() => new TableScheduler(documentClient(), tableName()));
