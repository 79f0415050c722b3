import { routes } from '#functions/routes';
import { CHOSEN_LOOK_SCHEDULE, longestPauseMs, lookTimesMs, type LookSchedule } from './claim-schedule';
import { costOf, type UnitUsage } from './cost';
import type { BenchFunction } from './functions';
import { LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION, PRICES, XRAY_DEFAULT_SAMPLING_RATE } from './prices';

/**
 * A waiting route's memory: lib/constructs/api-routes.ts `WAITING_ROUTE_MEMORY_MB`, copied
 * because that module pulls in aws-cdk-lib (as bench/functions.ts says of its own default).
 */
export const WAITING_ROUTE_MEMORY_MB = 256;

/** The month an idle worker is priced over: 30 days. */
export const MONTH_SECONDS = 30 * 24 * 60 * 60;

const GB = 1024 ** 3;

/**
 * Read units of one look at an empty queue: a strongly consistent Query is billed at least one
 * read unit even when it finds nothing, but DynamoDB Local reports 0 for it, so looks are priced
 * at this instead of what was reported.
 */
export const LOOK_READ_UNITS = 1;

/**
 * The stack's functions with a waiting route (the claim) at the memory `sizeOf` gives it;
 * bench/functions.ts gives every route the default 512 MB.
 */
export function withWaitingRouteMemory(functions: readonly BenchFunction[]): BenchFunction[] {
  const waiting = new Set(routes.filter((route) => route.waitsSeconds).map((route) => route.handler));
  return functions.map((fn) => (waiting.has(fn.handler) ? { ...fn, memoryMb: WAITING_ROUTE_MEMORY_MB } : fn));
}

/** One kind of claim, measured on the local runtime: averages per claim. */
export interface MeasuredClaim {
  claims: number;
  waitSeconds: number;
  /** The handler's duration as Lambda bills it (each invocation rounded up to 1 ms). */
  billedMs: number;
  /** As metered (DynamoDB Local's figures), and of those the looks' share. */
  readUnits: number;
  lookReadUnitsReported: number;
  writeUnits: number;
  /** Application log lines at INFO, the deployed level (Lambda's own lines are added when priced). */
  logBytes: number;
  /** Queries of the claim queue. */
  looks: number;
  /** Request sent → answer received, at the client. */
  wallMs: number;
}

/** A way for an idle worker to learn of new tasks. */
export interface IdleDesign {
  name: string;
  /** The claim's wait on the server; 0: none. */
  waitSeconds: number;
  /** Without a server wait: the client claims once every this many seconds. */
  pollEverySeconds?: number;
  memoryMb: number;
  schedule: LookSchedule;
  chosen?: boolean;
}

export interface IdleDesignCost {
  design: IdleDesign;
  /** The longest a task created while the worker idles waits before a claim sees it (after the wait's first seconds). */
  noticeWithinMs: number;
  claimsPerMonth: number;
  looksPerClaim: number;
  billedMsPerClaim: number;
  /** Dollars per idle claim loop per 30 days. */
  usd: { apiGateway: number; lambdaRequests: number; compute: number; reads: number; writes: number; logsAndTraces: number; total: number };
}

const FIXED_100_MS: LookSchedule = { firstDelayMs: 100, growth: 1, maxDelayMs: 100 };

/** The chosen design and the alternatives the issue asks about. */
export const IDLE_DESIGNS: IdleDesign[] = [
  { name: 'server wait 20 s, 256 MB (chosen)', waitSeconds: 20, memoryMb: 256, schedule: CHOSEN_LOOK_SCHEDULE, chosen: true },
  { name: 'server wait 20 s, 512 MB (the API default)', waitSeconds: 20, memoryMb: 512, schedule: CHOSEN_LOOK_SCHEDULE },
  { name: 'server wait 20 s, 128 MB (Lambda\'s least)', waitSeconds: 20, memoryMb: 128, schedule: CHOSEN_LOOK_SCHEDULE },
  { name: 'server wait 20 s, a look every 100 ms', waitSeconds: 20, memoryMb: 256, schedule: FIXED_100_MS },
  { name: 'server wait 5 s, 256 MB', waitSeconds: 5, memoryMb: 256, schedule: CHOSEN_LOOK_SCHEDULE },
  { name: 'no server wait, client claims every 1 s', waitSeconds: 0, pollEverySeconds: 1, memoryMb: 256, schedule: CHOSEN_LOOK_SCHEDULE },
  { name: 'no server wait, client claims every 20 s', waitSeconds: 0, pollEverySeconds: 20, memoryMb: 256, schedule: CHOSEN_LOOK_SCHEDULE },
];

/**
 * An idle claim loop's month under each design, from two measured claims: an empty claim
 * without a wait (the fixed work of any claim: middleware, idempotency record, one look) and an
 * empty 20 s wait (what waiting adds: its looks and its milliseconds). A design's claim is the
 * fixed work plus its wait's milliseconds and its schedule's looks, each priced at
 * LOOK_READ_UNITS; a server wait's next claim starts when the last answer arrives
 * (the SDK claims again at once after a 204), so a month holds month ÷ (wait + turnaround) claims.
 */
export function idleDesignCosts(empty: MeasuredClaim, waiting: MeasuredClaim, designs: readonly IdleDesign[] = IDLE_DESIGNS): IdleDesignCost[] {
  const waitMs = waiting.waitSeconds * 1000;
  const overheadMs = waiting.billedMs - waitMs;
  const turnaroundMs = Math.max(0, waiting.wallMs - waitMs);
  return designs.map((design) => {
    const waits = design.waitSeconds > 0;
    const base = waits ? waiting : empty;
    const looksPerClaim = waits ? lookTimesMs(design.waitSeconds, design.schedule).length : 1;
    const billedMsPerClaim = waits ? design.waitSeconds * 1000 + overheadMs : empty.billedMs;
    const periodMs = waits ? design.waitSeconds * 1000 + turnaroundMs : (design.pollEverySeconds ?? 1) * 1000;
    const claimsPerMonth = (MONTH_SECONDS * 1000) / periodMs;
    const readUnits = base.readUnits - base.lookReadUnitsReported + looksPerClaim * LOOK_READ_UNITS;
    const usd = {
      apiGateway: claimsPerMonth * PRICES.restApiRequest.usd,
      lambdaRequests: claimsPerMonth * PRICES.lambdaRequest.usd,
      compute: claimsPerMonth * (billedMsPerClaim / 1000) * (design.memoryMb / 1024) * PRICES.lambdaArmGbSecond.usd,
      reads: claimsPerMonth * readUnits * PRICES.dynamoReadRequestUnit.usd,
      writes: claimsPerMonth * base.writeUnits * PRICES.dynamoWriteRequestUnit.usd,
      logsAndTraces: claimsPerMonth * (((base.logBytes + LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION) / GB) * PRICES.logsIngestedGb.usd + XRAY_DEFAULT_SAMPLING_RATE * PRICES.xrayTraceRecorded.usd),
      total: 0,
    };
    usd.total = usd.apiGateway + usd.lambdaRequests + usd.compute + usd.reads + usd.writes + usd.logsAndTraces;
    const noticeWithinMs = waits ? longestPauseMs(design.waitSeconds, design.schedule) : (design.pollEverySeconds ?? 1) * 1000;
    return { design, noticeWithinMs, claimsPerMonth, looksPerClaim, billedMsPerClaim, usd };
  });
}

/** Dollars per million calls of one protocol route, all-in (its API request included), from a metered task's usage. */
export function callUsdPerMillion(usage: UnitUsage, label: string): number | undefined {
  const fn = usage.byFunction.find((entry) => entry.label === label);
  if (!fn || fn.invocations === 0) return undefined;
  const alone: UnitUsage = {
    apiRequests: fn.invocations,
    invocations: fn.invocations,
    gbSeconds: (fn.billedMs / 1000) * (fn.memoryMb / 1024),
    readUnits: fn.readUnits,
    writeUnits: fn.writeUnits,
    sqsRequests: fn.sqsRequests,
    schedulerInvocations: 0,
    logBytes: fn.logBytes + fn.invocations * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION,
    byFunction: [fn],
    authorizerInvocations: 0,
  };
  return costOf(alone).totalRest / fn.invocations;
}
