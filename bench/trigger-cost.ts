import type { CostBreakdown } from './cost';
import { LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION, PRICES, XRAY_DEFAULT_SAMPLING_RATE } from './prices';
import type { HopCost, MeteredScenario } from './results';

const GB = 1024 ** 3;

/** The route a plain task enters by; a triggered task skips it (and its API request). */
export const CREATE_TASK_ROUTE = 'POST /tasks';

export interface TriggeredBesidePlain {
  taskType: string;
  /** A plain task created by POST /tasks, all-in, from the metering phase ($ per million, REST / HTTP API). */
  plainRest: number;
  plainHttp: number;
  /** What the plain task spends on its way in: the API request and the POST /tasks function. */
  entryRest: number;
  entryHttp: number;
  /** What the trigger spends instead: its function (and, for a schedule, the scheduler's invocation). */
  trigger: number;
  /** plain − entry + trigger: the same task started by the trigger. */
  triggeredRest: number;
  triggeredHttp: number;
}

/** Dollars of one function's per-unit line of a metered scenario (as costOf prices a whole scenario). */
function functionUsd(fn: MeteredScenario['usage']['byFunction'][number]): number {
  return (
    fn.invocations * (PRICES.lambdaRequest.usd + XRAY_DEFAULT_SAMPLING_RATE * PRICES.xrayTraceRecorded.usd) +
    (fn.billedMs / 1000) * (fn.memoryMb / 1024) * PRICES.lambdaArmGbSecond.usd +
    fn.readUnits * PRICES.dynamoReadRequestUnit.usd +
    fn.writeUnits * PRICES.dynamoWriteRequestUnit.usd +
    fn.sqsRequests * PRICES.sqsRequest.usd +
    ((fn.logBytes + fn.invocations * LAMBDA_PLATFORM_LOG_BYTES_PER_INVOCATION) / GB) * PRICES.logsIngestedGb.usd
  );
}

/**
 * A triggered task's cost beside the same task type created through the API: the plain task's
 * all-in figure with its way in (the API request and the POST /tasks invocation) replaced by the
 * trigger's (the trigger function's invocation, and EventBridge Scheduler's for a schedule).
 * Undefined when the metering phase has no figure for the task type.
 */
export function triggeredBesidePlain(taskType: string, hop: Pick<HopCost, 'cost'>, metering: readonly MeteredScenario[] | undefined): TriggeredBesidePlain | undefined {
  const plain = metering?.find((scenario) => scenario.name === taskType && scenario.kind === 'task');
  if (!plain) return undefined;
  const route = plain.usage.byFunction.find((fn) => fn.label === CREATE_TASK_ROUTE);
  const lambda = route ? functionUsd(route) : 0;
  const entryRest = (lambda + plain.usage.apiRequests * PRICES.restApiRequest.usd) * 1e6;
  const entryHttp = (lambda + plain.usage.apiRequests * PRICES.httpApiRequest.usd) * 1e6;
  const trigger = total(hop.cost);
  return {
    taskType,
    plainRest: plain.cost.totalRest,
    plainHttp: plain.cost.totalHttp,
    entryRest,
    entryHttp,
    trigger,
    triggeredRest: plain.cost.totalRest - entryRest + trigger,
    triggeredHttp: plain.cost.totalHttp - entryHttp + trigger,
  };
}

/** A hop has no API request, so both totals are the same. */
export function total(cost: CostBreakdown): number {
  return cost.totalHttp;
}
