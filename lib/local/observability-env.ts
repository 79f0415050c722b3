/**
 * Powertools settings for the local runtime, applied before any handler module loads (the
 * logger, metrics and tracer read them once, when created), and only where the user set none:
 *
 * - POWERTOOLS_LOG_LEVEL from GATEHOUSE_LOG_LEVEL, default WARN: `npm start` stays readable
 *   (the one-line-per-request access log appears with GATEHOUSE_LOG_LEVEL=INFO).
 * - POWERTOOLS_METRICS_DISABLED=true: EMF lines only mean something to CloudWatch; set it to
 *   false to see them.
 * - POWERTOOLS_TRACE_ENABLED=false: there is no X-Ray daemon here (Powertools also turns tracing
 *   off by itself outside Lambda; this makes it explicit).
 * - AWS_XRAY_MANUAL_MODE=true while tracing is off: in its default (automatic) mode the X-Ray SDK,
 *   which Powertools' Tracer loads whether or not it traces, hooks every promise of the process
 *   (cls-hooked, with a destroy hook) to carry trace contexts. With tracing off nothing reads
 *   them, and here that process is every function at once, plus the gateway, paying for each.
 *
 * docs/operating/log-queries.md lists them. Tests set their own (quieter) defaults in vitest.config.ts.
 */
export function applyLocalObservabilityDefaults(env: NodeJS.ProcessEnv = process.env): void {
  env.POWERTOOLS_LOG_LEVEL ??= env.GATEHOUSE_LOG_LEVEL ?? 'WARN';
  env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  env.POWERTOOLS_TRACE_ENABLED ??= 'false';
  if (env.POWERTOOLS_TRACE_ENABLED === 'false') env.AWS_XRAY_MANUAL_MODE ??= 'true';
}

applyLocalObservabilityDefaults();
