import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { RATE_LIMIT_PARTITION_PREFIX } from '#shared/adapters/dynamodb/keys';
import { LIMIT_SETTINGS, parseLimit, type LimitName } from '#shared/config/limits';

/**
 * What API route functions read: the request budget and the size caps, for workers' claims the
 * task cap and the longest wait, the per-tenant count caps and the artifact budget of a task.
 */
export const API_LIMITS: readonly LimitName[] = [
  'ratePerSecond',
  'burst',
  'maxBodyBytes',
  'maxQueryStringLength',
  'maxPathParameterLength',
  'tenantTaskConcurrency',
  'claimWaitSeconds',
  'maxWebhooksPerTenant',
  'maxTriggersPerTenant',
  'maxIntegrationsPerTenant',
  'maxCustomAgentsPerTenant',
  'maxArtifactsPerTask',
  'maxArtifactBytesPerTask',
];
/** What the task worker reads: the per-tenant cap on running tasks and the deferral delay. */
export const WORKER_LIMITS: readonly LimitName[] = ['tenantTaskConcurrency', 'taskDeferSeconds'];
/** What the event-trigger consumer reads: the fan-out budget of a chain. */
export const EVENT_TRIGGER_LIMITS: readonly LimitName[] = ['eventTriggerFanOut'];

/**
 * The environment for the named limits from CDK context (`cdk deploy -c gatehouse:rateLimitPerSecond=50`
 * or cdk.json), checked against the same ranges the functions apply. A limit without context is not
 * set, and the function uses the default of shared/config/limits.ts.
 */
export function limitEnvironment(scope: IConstruct, names: readonly LimitName[]): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of names) {
    const { env, context } = LIMIT_SETTINGS[name];
    const value: unknown = scope.node.tryGetContext(context);
    if (value === undefined) continue;
    environment[env] = String(parseLimit(name, String(value), `CDK context ${context}`));
  }
  return environment;
}

/**
 * UpdateItem on the request-budget items only: the one write a read-only route makes. IAM can
 * restrict writes to partition keys (`dynamodb:LeadingKeys`), and every budget key starts with
 * RATE_LIMIT_PARTITION_PREFIX, which begins no other key.
 */
export function rateLimitWriteStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_LIMIT_PARTITION_PREFIX}*`] } },
  });
}
