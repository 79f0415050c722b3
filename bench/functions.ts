import { authorizer, routes, type RouteAccess } from '#functions/routes';
import { consumers, eventFanOut, eventTriggerConsumer, recurringJobs, scheduleTargetAccess, scheduleTargets, type FunctionAccess } from '#shared/config/topology';

/**
 * Memory of functions whose declaration names none: `GatehouseFunction`'s default
 * (lib/constructs/gatehouse-function.ts), which API handlers, the authorizer, the streaming
 * function and schedule targets use. Kept in step by hand: that module pulls in aws-cdk-lib.
 */
export const DEFAULT_MEMORY_MB = 512;

export type FunctionKind = 'api' | 'authorizer' | 'streaming' | 'consumer' | 'stream-consumer' | 'schedule-target' | 'recurring-job';

/** One deployed Lambda function, as the benchmark meters and bundles it. */
export interface BenchFunction {
  /** Handler file relative to the repository root; what the local runtime's invocation observer reports. */
  handler: string;
  kind: FunctionKind;
  memoryMb: number;
  access: RouteAccess | FunctionAccess;
  /** `GET /tasks/{task_id}`, a consumer's name, or a schedule target's name. */
  label: string;
}

/** Every function of the stack, read from the route table and the topology, each handler once. */
export function benchFunctions(): BenchFunction[] {
  const all: BenchFunction[] = [
    ...routes.map((route): BenchFunction => ({
      handler: route.handler,
      kind: route.streaming ? 'streaming' : 'api',
      memoryMb: DEFAULT_MEMORY_MB,
      access: route.access,
      label: `${route.method} ${route.path}`,
    })),
    { handler: authorizer.handler, kind: 'authorizer', memoryMb: DEFAULT_MEMORY_MB, access: authorizer.access, label: 'API authorizer' },
    ...consumers.map((consumer): BenchFunction => ({ handler: consumer.handler, kind: 'consumer', memoryMb: consumer.memoryMb, access: consumer.access, label: consumer.name })),
    { handler: eventFanOut.handler, kind: 'stream-consumer', memoryMb: eventFanOut.memoryMb, access: eventFanOut.access, label: eventFanOut.name },
    { handler: eventTriggerConsumer.handler, kind: 'stream-consumer', memoryMb: eventTriggerConsumer.memoryMb, access: eventTriggerConsumer.access, label: eventTriggerConsumer.name },
    ...Object.entries(scheduleTargets).map(([target, handler]): BenchFunction => ({
      handler,
      kind: 'schedule-target',
      memoryMb: DEFAULT_MEMORY_MB,
      access: scheduleTargetAccess[target as keyof typeof scheduleTargets],
      label: `schedule target ${target}`,
    })),
    ...recurringJobs.map((job): BenchFunction => ({ handler: job.handler, kind: 'recurring-job', memoryMb: job.memoryMb, access: job.access, label: job.name })),
  ];
  const seen = new Set<string>();
  return all.filter((fn) => !seen.has(fn.handler) && seen.add(fn.handler));
}

/** The function a handler file belongs to; unknown files are a bench bug, so they throw. */
export function functionByHandler(functions: readonly BenchFunction[], handler: string): BenchFunction {
  const found = functions.find((fn) => fn.handler === handler);
  if (!found) throw new Error(`No function in routes.ts or topology.ts has handler ${handler}.`);
  return found;
}
