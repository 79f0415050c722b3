import { describe, expect, it } from 'vitest';
import { costOf, unitUsage } from '../../../bench/cost';
import type { BenchFunction } from '../../../bench/functions';
import type { FunctionMeter, MeterSnapshot } from '../../../bench/metering';
import { LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION } from '../../../bench/prices';

const functions: BenchFunction[] = [
  { handler: 'functions/tasks/create-task.ts', kind: 'api', memoryMb: 512, access: { table: 'read_write' }, label: 'POST /tasks' },
  { handler: 'functions/auth/authorize.ts', kind: 'authorizer', memoryMb: 512, access: { table: 'read_write' }, label: 'API authorizer' },
  { handler: 'functions/workers/run-task.ts', kind: 'consumer', memoryMb: 1024, access: { table: 'read_write' }, label: 'task-worker' },
  { handler: 'functions/approvals/expire-approval.ts', kind: 'schedule-target', memoryMb: 512, access: { table: 'read_write' }, label: 'approval-expiry' },
];

const meter = (values: Partial<FunctionMeter>): FunctionMeter => ({ invocations: 0, failed: 0, billedMs: 0, readUnits: 0, writeUnits: 0, sqsRequests: 0, logBytes: 0, ...values });

function snapshot(): MeterSnapshot {
  return {
    functions: {
      'functions/tasks/create-task.ts': meter({ invocations: 2, billedMs: 100, readUnits: 1, writeUnits: 8, sqsRequests: 2 }),
      'functions/auth/authorize.ts': meter({ invocations: 2, billedMs: 1000, readUnits: 1, writeUnits: 2 }),
      'functions/workers/run-task.ts': meter({ invocations: 2, billedMs: 2000, writeUnits: 12, logBytes: 300 }),
      'functions/approvals/expire-approval.ts': meter({ invocations: 1, billedMs: 50 }),
    },
    eventSourceSqsRequests: 4,
    emptyReceives: 99,
    schedulesCreated: 1,
    schedulesDeleted: 0,
    localOnlyReadUnits: 5,
    localOnlyWriteUnits: 5,
    transactions: 2,
    transactionUnitsPriced: 8,
    transactionUnitsReportedLocally: 8,
  };
}

describe('cost per unit of work', () => {
  it('averages a window over its units and leaves the authorizer and local stand-ins unpriced', () => {
    const usage = unitUsage(snapshot(), 2, functions);

    expect(usage.apiRequests).toBe(1);
    expect(usage.invocations).toBe(2.5);
    expect(usage.authorizerInvocations).toBe(1);
    // (100 ms × 0.5 GB + 2000 ms × 1 GB + 50 ms × 0.5 GB) / 1000 / 2 units
    expect(usage.gbSeconds).toBeCloseTo((0.05 + 2 + 0.025) / 2, 10);
    expect(usage.readUnits).toBe(0.5);
    expect(usage.writeUnits).toBe(10);
    expect(usage.sqsRequests).toBe(3);
    expect(usage.schedulerInvocations).toBe(0.5);
    expect(usage.logBytes).toBe((300 + 5 * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION) / 2);
  });

  it('prices each line per million units and totals REST and HTTP API apart', () => {
    const cost = costOf(unitUsage(snapshot(), 2, functions));
    const line = (item: string) => cost.lines.find((entry) => entry.item.startsWith(item))!.usdPerMillion;

    expect(line('API Gateway REST')).toBeCloseTo(3.5, 10);
    expect(line('API Gateway HTTP')).toBeCloseTo(1, 10);
    expect(line('DynamoDB write')).toBeCloseTo(10 * 0.625, 10);
    expect(line('DynamoDB read')).toBeCloseTo(0.5 * 0.125, 10);
    expect(line('SQS')).toBeCloseTo(3 * 0.4, 10);
    expect(line('Lambda invocations')).toBeCloseTo(2.5 * 0.2, 10);
    expect(line('Lambda compute')).toBeCloseTo(1.0375 * 13.3334, 6);
    const shared = cost.lines.filter((entry) => !entry.item.startsWith('API Gateway')).reduce((sum, entry) => sum + entry.usdPerMillion, 0);
    expect(cost.totalRest).toBeCloseTo(shared + 3.5, 10);
    expect(cost.totalHttp).toBeCloseTo(shared + 1, 10);
    // The hops: the API request, the invocations and the SQS requests, nothing else.
    expect(cost.hopsRest).toBeCloseTo(3.5 + 2.5 * 0.2 + 3 * 0.4, 10);
    expect(cost.hopsHttp).toBeCloseTo(1 + 2.5 * 0.2 + 3 * 0.4, 10);
  });

  it('refuses a window without units or with a function no declaration names', () => {
    expect(() => unitUsage(snapshot(), 0, functions)).toThrow(RangeError);
    expect(() => unitUsage(snapshot(), 1, functions.slice(0, 2))).toThrow(/no declaration names/);
  });
});
