import type { BenchFunction } from './functions';
import type { MeterSnapshot } from './metering';
import { LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION, PRICES, XRAY_DEFAULT_SAMPLING_RATE, type PriceName } from './prices';

/** What one unit of work (a task, a scan) used on average, as AWS would bill it. */
export interface UnitUsage {
  /** API requests the client made (one per route invocation). */
  apiRequests: number;
  /** Lambda invocations, the authorizer's excluded (API Gateway caches its answer for 60 s). */
  invocations: number;
  /** GB-seconds of billed duration: each invocation's ms rounded up, times its function's memory. */
  gbSeconds: number;
  readUnits: number;
  writeUnits: number;
  sqsRequests: number;
  schedulerInvocations: number;
  /** Application log bytes plus Lambda's START/END/REPORT lines. */
  logBytes: number;
  /** Per function, for the breakdown table. */
  byFunction: { label: string; handler: string; memoryMb: number; invocations: number; billedMs: number; readUnits: number; writeUnits: number; sqsRequests: number; logBytes: number }[];
  /** Authorizer invocations seen locally (no cache there), shown but not priced. */
  authorizerInvocations: number;
}

/** One line of the cost arithmetic: quantity per unit × price = dollars per million units. */
export interface CostLine {
  item: string;
  quantity: number;
  price: PriceName;
  usdPerMillion: number;
}

export interface CostBreakdown {
  lines: CostLine[];
  /** Dollars per million units with API Gateway's REST API, and with an HTTP API instead. */
  totalRest: number;
  totalHttp: number;
  /**
   * The part no code change makes cheaper: the API request, the Lambda invocations and the SQS
   * requests, one per hop the topology gives the work (docs/benchmarks.md, "What the target needs").
   */
  hopsRest: number;
  hopsHttp: number;
}

const GB = 1024 ** 3;

/** Averages a metered window over the `units` of work it ran. */
export function unitUsage(snapshot: MeterSnapshot, units: number, functions: readonly BenchFunction[]): UnitUsage {
  if (units < 1) throw new RangeError('At least one unit of work must have run.');
  const byFunction = Object.entries(snapshot.functions).map(([handler, meter]) => {
    const fn = functions.find((candidate) => candidate.handler === handler);
    if (!fn) throw new Error(`Metered an invocation of ${handler}, which no declaration names.`);
    return { fn, meter };
  });
  const per = (value: number) => value / units;
  // The authorizer is cached by API Gateway; the sweeper runs once a minute whatever the load (a
  // fixed ~43,200 invocations a month), so neither is a cost per task.
  const priced = byFunction.filter(({ fn }) => fn.kind !== 'authorizer' && fn.kind !== 'recurring-job');
  const sum = (pick: (entry: (typeof byFunction)[number]) => number) => priced.reduce((total, entry) => total + pick(entry), 0);
  const invocations = sum(({ meter }) => meter.invocations);
  return {
    apiRequests: per(sum(({ fn, meter }) => (fn.kind === 'api' ? meter.invocations : 0))),
    invocations: per(invocations),
    gbSeconds: per(sum(({ fn, meter }) => (meter.billedMs / 1000) * (fn.memoryMb / 1024))),
    readUnits: per(sum(({ meter }) => meter.readUnits)),
    writeUnits: per(sum(({ meter }) => meter.writeUnits)),
    sqsRequests: per(sum(({ meter }) => meter.sqsRequests) + snapshot.eventSourceSqsRequests),
    schedulerInvocations: per(sum(({ fn, meter }) => (fn.kind === 'schedule-target' ? meter.invocations : 0))),
    logBytes: per(sum(({ meter }) => meter.logBytes) + invocations * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION),
    authorizerInvocations: per(byFunction.filter(({ fn }) => fn.kind === 'authorizer').reduce((total, { meter }) => total + meter.invocations, 0)),
    byFunction: byFunction
      .map(({ fn, meter }) => ({
        label: fn.label,
        handler: fn.handler,
        memoryMb: fn.memoryMb,
        invocations: per(meter.invocations),
        billedMs: per(meter.billedMs),
        readUnits: per(meter.readUnits),
        writeUnits: per(meter.writeUnits),
        sqsRequests: per(meter.sqsRequests),
        logBytes: per(meter.logBytes),
      }))
      .sort((a, b) => b.billedMs - a.billedMs),
  };
}

function line(item: string, quantity: number, price: PriceName): CostLine {
  return { item, quantity, price, usdPerMillion: quantity * PRICES[price].usd * 1e6 };
}

/** The list-price arithmetic for one unit of work, per million units. */
export function costOf(usage: UnitUsage): CostBreakdown {
  const shared = [
    line('Lambda invocations', usage.invocations, 'lambdaRequest'),
    line('Lambda compute (GB-s, arm64)', usage.gbSeconds, 'lambdaArmGbSecond'),
    line('DynamoDB write request units', usage.writeUnits, 'dynamoWriteRequestUnit'),
    line('DynamoDB read request units', usage.readUnits, 'dynamoReadRequestUnit'),
    line('SQS requests', usage.sqsRequests, 'sqsRequest'),
    line('EventBridge Scheduler invocations', usage.schedulerInvocations, 'schedulerInvocation'),
    line('CloudWatch Logs ingested (GB)', usage.logBytes / GB, 'logsIngestedGb'),
    line('X-Ray traces (default sampling)', usage.invocations * XRAY_DEFAULT_SAMPLING_RATE, 'xrayTraceRecorded'),
  ];
  const rest = line('API Gateway REST API requests', usage.apiRequests, 'restApiRequest');
  const http = line('API Gateway HTTP API requests', usage.apiRequests, 'httpApiRequest');
  const common = shared.reduce((total, entry) => total + entry.usdPerMillion, 0);
  const hops = shared.filter((entry) => entry.price === 'lambdaRequest' || entry.price === 'sqsRequest').reduce((total, entry) => total + entry.usdPerMillion, 0);
  return {
    lines: [rest, http, ...shared],
    totalRest: common + rest.usdPerMillion,
    totalHttp: common + http.usdPerMillion,
    hopsRest: hops + rest.usdPerMillion,
    hopsHttp: hops + http.usdPerMillion,
  };
}
