/**
 * Environment every bench runtime gets, set before its handlers load. Logging stays at WARN so that
 * thousands of requests a second neither flood the terminal nor measure log formatting; the
 * metering phase overrides it with INFO, the level a deployed stack logs at, to count the bytes.
 * The bench is one tenant pushing as hard as it can: its request budget and task cap are raised
 * so that the figures measure the service, not the limiter (which still runs: its leases' conditional
 * writes are metered and priced like any other). `BENCH_RUNTIME_ENV` (JSON object) adds
 * or overrides entries.
 */
export const BENCH_RUNTIME_ENVIRONMENT: Readonly<Record<string, string>> = {
  POWERTOOLS_LOG_LEVEL: 'WARN',
  // As the local runtime sets them (lib/local/observability-env.ts), here before the phase's own
  // imports load the tracer: no X-Ray daemon, so no tracing and none of its per-promise hooks.
  POWERTOOLS_TRACE_ENABLED: 'false',
  AWS_XRAY_MANUAL_MODE: 'true',
  GATEHOUSE_RATE_LIMIT_PER_SECOND: '10000',
  GATEHOUSE_RATE_LIMIT_BURST: '100000',
  GATEHOUSE_TENANT_TASK_CONCURRENCY: '100',
  // The triggers phase stores 200 triggers for one tenant and fires one event trigger from the same
  // source task for every sample: the per-tenant cap and the per-chain fan-out budget are raised.
  GATEHOUSE_MAX_TRIGGERS_PER_TENANT: '1000',
  GATEHOUSE_EVENT_TRIGGER_FAN_OUT: '10000',
  // Metrics go out as EMF lines on stdout either way; the bench keeps them (they are real work).
};

export function benchRuntimeEnvironment(overrides: Record<string, string> = {}, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const extra = env.BENCH_RUNTIME_ENV ? (JSON.parse(env.BENCH_RUNTIME_ENV) as Record<string, string>) : {};
  return { ...BENCH_RUNTIME_ENVIRONMENT, ...overrides, ...extra };
}
