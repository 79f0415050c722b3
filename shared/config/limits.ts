/**
 * The service's limits: one declaration of each setting's environment variable, default and
 * allowed range. Lambda functions and the local runtime read them from the environment; the CDK
 * stack sets them from context (lib/constructs/limit-settings.ts); docs/limits.md explains them.
 */
import { once } from '#shared/config/env';

export interface LimitSetting {
  /** The environment variable functions read. */
  env: string;
  /** CDK context key that sets it on deploy (`cdk deploy -c gatehouse:rateLimitPerSecond=50`). */
  context: string;
  defaultValue: number;
  min: number;
  max: number;
}

const setting = (env: string, context: string, defaultValue: number, min: number, max: number): LimitSetting => ({ env, context, defaultValue, min, max });

export const LIMIT_SETTINGS = {
  /** Sustained API requests per second per tenant (Stripe allows 100 in live mode, 25 in test mode). */
  ratePerSecond: setting('GATEHOUSE_RATE_LIMIT_PER_SECOND', 'gatehouse:rateLimitPerSecond', 50, 1, 10_000),
  /** Requests a tenant may send at once after a quiet period. */
  burst: setting('GATEHOUSE_RATE_LIMIT_BURST', 'gatehouse:rateLimitBurst', 100, 1, 100_000),
  /** JSON request bodies; the API documents 1 MiB as the maximum (docs/api.md), so this only lowers the cap. */
  maxBodyBytes: setting('GATEHOUSE_MAX_BODY_BYTES', 'gatehouse:maxBodyBytes', 1024 * 1024, 1024, 1024 * 1024),
  /** Characters of the whole query string (cursors are the longest legitimate values, a few hundred). */
  maxQueryStringLength: setting('GATEHOUSE_MAX_QUERY_STRING_LENGTH', 'gatehouse:maxQueryStringLength', 2048, 256, 8192),
  /** Characters of one path parameter (identifiers are about 30; DynamoDB sort keys stop at 1 KiB). */
  maxPathParameterLength: setting('GATEHOUSE_MAX_PATH_PARAMETER_LENGTH', 'gatehouse:maxPathParameterLength', 128, 32, 512),
  /** Tasks of one tenant running at once across all workers; the rest wait their turn. */
  tenantTaskConcurrency: setting('GATEHOUSE_TENANT_TASK_CONCURRENCY', 'gatehouse:tenantTaskConcurrency', 10, 1, 100),
  /** First delay before a task deferred by the tenant's cap is offered again (doubles per deferral, ×32 at most). */
  taskDeferSeconds: setting('GATEHOUSE_TASK_DEFER_SECONDS', 'gatehouse:taskDeferSeconds', 2, 1, 28),
  /**
   * The longest a worker's claim waits for a task (its `wait_seconds` is cut to this): a waiting
   * claim holds its Lambda, so this is what an idle worker costs (docs/benchmarks.md).
   */
  claimWaitSeconds: setting('GATEHOUSE_CLAIM_WAIT_SECONDS', 'gatehouse:claimWaitSeconds', 20, 0, 20),
  /** Webhook subscriptions per tenant: GET /webhooks does not page, and one event fans out to each. */
  maxWebhooksPerTenant: setting('GATEHOUSE_MAX_WEBHOOKS_PER_TENANT', 'gatehouse:maxWebhooksPerTenant', 25, 1, 100),
  /** Triggers per tenant: every emitted artifact is matched against all of the tenant's. */
  maxTriggersPerTenant: setting('GATEHOUSE_MAX_TRIGGERS_PER_TENANT', 'gatehouse:maxTriggersPerTenant', 100, 1, 1_000),
  /** Integrations per tenant. */
  maxIntegrationsPerTenant: setting('GATEHOUSE_MAX_INTEGRATIONS_PER_TENANT', 'gatehouse:maxIntegrationsPerTenant', 50, 1, 500),
  /** Custom agents per tenant: their manifests (up to 64 KiB each) share one partition, read whole by listings. */
  maxCustomAgentsPerTenant: setting('GATEHOUSE_MAX_CUSTOM_AGENTS_PER_TENANT', 'gatehouse:maxCustomAgentsPerTenant', 50, 1, 200),
  /** Tasks event triggers may start from one originating task, down the whole chain (`skipped_budget` past it). */
  eventTriggerFanOut: setting('GATEHOUSE_EVENT_TRIGGER_FAN_OUT', 'gatehouse:eventTriggerFanOut', 50, 1, 10_000),
  /** Artifacts one task may emit (the task record lists each, and DynamoDB items stop at 400 KB). */
  maxArtifactsPerTask: setting('GATEHOUSE_MAX_ARTIFACTS_PER_TASK', 'gatehouse:maxArtifactsPerTask', 100, 1, 1_000),
  /** Bytes of artifact data (JSON, UTF-8) one task may emit in all. */
  maxArtifactBytesPerTask: setting('GATEHOUSE_MAX_ARTIFACT_BYTES_PER_TASK', 'gatehouse:maxArtifactBytesPerTask', 8 * 1024 * 1024, 1024, 64 * 1024 * 1024),
} as const;

export type LimitName = keyof typeof LIMIT_SETTINGS;
export type Limits = Record<LimitName, number>;

/** A setting's value from a raw string, or an error naming the setting and its range. */
export function parseLimit(name: LimitName, raw: string | undefined, source: string): number {
  const { defaultValue, min, max } = LIMIT_SETTINGS[name];
  if (raw === undefined || raw.trim() === '') return defaultValue;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${source} must be an integer from ${min} to ${max}, got '${raw}'.`);
  }
  return value;
}

/** Every limit from an environment; an out-of-range value is a deployment error and fails loudly. */
export function readLimits(env: Record<string, string | undefined> = process.env): Limits {
  return Object.fromEntries(
    (Object.entries(LIMIT_SETTINGS) as [LimitName, LimitSetting][]).map(([name, { env: variable }]) => [name, parseLimit(name, env[variable], `Environment variable ${variable}`)]),
  ) as Limits;
}

/** The process's limits, read once at first use. */
export const limits = once(() => readLimits());
