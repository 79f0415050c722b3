/**
 * cdk-nag (AwsSolutions) for the Gatehouse stack, and every finding the stack acknowledges, each
 * with its reason. cdk-nag v3 runs as a CDK policy-validation plugin; acknowledgements are CDK's
 * `Validations.of(scope).acknowledge`, which cover the scope and everything under it. An IAM5
 * (wildcard) acknowledgement always names the one wildcard it accepts (`IAM5[Resource::...]`),
 * never the rule as a whole, so any other wildcard in the same policy is still reported.
 *
 * Acknowledgements sit where their cause is created, so whatever is added later through the same
 * path is covered without a new one: every GatehouseFunction (routes, consumers, schedule targets,
 * a sweeper) through `acknowledgeFunctionFindings`; every grant on the table's indexes or on export
 * objects through the stack-wide acknowledgement of that exact resource pattern; every function
 * that schedules through `acknowledgeSchedulingGrant`.
 */
import { Stack, Validations, type App, type IResolvable } from 'aws-cdk-lib';
import type { IRestApi, Method, Stage } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
// The exact rendering cdk-nag uses for a resource in an IAM5 finding (`<Table.Arn>/index/*`).
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import type { IConstruct } from 'constructs';

/** Runs the AwsSolutions checks when the app synthesizes (`cdk synth` reports their findings). */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

/** The AwsSolutions pack, to validate a synthesized construct tree directly (tests). */
export function nagChecks(): AwsSolutionsChecks {
  return new AwsSolutionsChecks();
}

function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${id}`, reason });
}

/** The IAM5 finding id for a wildcard resource, as cdk-nag renders it. */
function wildcardResource(scope: IConstruct, resource: string | IResolvable): string {
  return `IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`;
}

/**
 * The findings every Gatehouse function has by construction: on its role, X-Ray's `*` and the KMS
 * wildcard actions of CDK's CMK grants; on the function, the pinned Node.js runtime.
 */
export function acknowledgeFunctionFindings(fn: IFunction, role: IRole): void {
  acknowledge(
    role,
    'IAM5[Resource::*]',
    'X-Ray tracing (Tracing.ACTIVE): xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so their only resource is "*". No other statement of a function role has "*" (test/infra/nag.test.ts checks).',
  );
  acknowledge(
    role,
    'IAM5[Action::kms:GenerateDataKey*]',
    "CDK's grants on the CMK-encrypted table and queues (grantReadWriteData, grantSendMessages): SQS producers and table writers need kms:GenerateDataKey, on the data key only (the statement's resource is that one key ARN).",
  );
  acknowledge(
    role,
    'IAM5[Action::kms:ReEncrypt*]',
    "CDK's encrypt/decrypt grant on the CMK-encrypted table and queues, on the data key only: re-encryption can only move ciphertext between keys the role may use, and it may use no other data key.",
  );
  acknowledge(
    fn,
    'L1',
    'Pinned to nodejs22.x, the runtime the bundles target (esbuild target node22) and the tests exercise; moving to a newer Node.js is a deliberate upgrade of runtime and bundling target together, not one a CDK release should trigger.',
  );
}

/** Grants on the table's indexes (`<Table.Arn>/index/*`), to any role of the stack. */
export function acknowledgeIndexGrants(table: ITable): void {
  acknowledge(
    Stack.of(table),
    wildcardResource(table, `${table.tableArn}/index/*`),
    "Queries on this table's own global secondary indexes (CDK's table grants): the pattern is bounded by the table ARN, and every index serves access patterns of the same tenant-partitioned items.",
  );
}

/** Grants on every object of the export bucket (`<Bucket.Arn>/*`), and the bucket's access logging. */
export function acknowledgeExportObjects(bucket: IBucket): void {
  acknowledge(
    Stack.of(bucket),
    wildcardResource(bucket, bucket.arnForObjects('*')),
    'Export objects have a new key per export (not known at deploy time); the statement allows only s3:PutObject and s3:GetObject on objects of this one bucket.',
  );
  acknowledge(
    bucket,
    'S1',
    'Objects live one day and are reached only through 5-minute presigned links the export route signs; who asked for each export is in the API access log and the function log. Server access logs would need a second bucket for no extra audit value; CloudTrail S3 data events can be enabled account-wide if required.',
  );
}

/** Creating and deleting one-time schedules in the service's group (`schedule/<group>/*`). */
export function acknowledgeSchedulingGrant(grantee: IConstruct, scheduleArnPattern: string): void {
  acknowledge(
    grantee,
    wildcardResource(grantee, scheduleArnPattern),
    "One-time schedules are named per approval at run time; the pattern is bounded by the service's own schedule group, and only CreateSchedule and DeleteSchedule are allowed.",
  );
}

/** A queue that is the on-failure destination of an event source mapping: it is itself the dead-letter queue. */
export function acknowledgeFailureDestination(queue: IQueue): void {
  acknowledge(
    queue,
    'SQS3',
    "The stream fan-out's on-failure destination: it is the dead-letter queue of the table stream's event source mapping (Lambda writes the failed batch's shard and sequence range to it) and nobody consumes it, so it needs no dead-letter queue of its own.",
  );
}

/** The REST API's findings: request validation, Cognito, WAF, and the account's CloudWatch role. */
export function acknowledgeApiFindings(api: IRestApi, stage: Stage): void {
  acknowledge(
    api,
    'APIG2',
    'Requests are validated in every handler with zod (routeHandler in shared/http), which answers a malformed request with a 400 application/problem+json naming each invalid field; API Gateway request validators would answer with a different format, before the handler can.',
  );
  acknowledge(
    api,
    'COG4',
    'Clients are servers authenticating with Gatehouse API keys (spec): the REQUEST authorizer resolves the Bearer key to a tenant and caches the answer per key. There are no end users to put in a Cognito user pool.',
  );
  acknowledge(
    api,
    'IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    "The account-level role API Gateway uses to write execution and access logs; AWS's managed policy is the documented one, and API Gateway creates its execution log groups itself, so a hand-written policy would need the same actions on the same log groups.",
  );
  acknowledge(
    stage,
    'APIG3',
    'No WAF web ACL by default: every route but /health needs an API key, the stage throttles the whole API, per-tenant rate limits and body size limits run in the handlers, and bodies are validated with zod. The managed rule sets target browser-facing sites; at about $5 per month plus per-request charges it is left to the operator (attach one with Firewall Manager or to the stage ARN).',
  );
}

/** A method open without authorization on purpose (`auth: 'none'` in the route table: /health, /v1/problems). */
export function acknowledgePublicMethod(method: Method): void {
  acknowledge(
    method,
    'APIG4',
    "Declared auth: 'none' in the route table: the health check for load balancers and uptime probes, and the static documentation of the API's problem types; neither reads the table or reveals any tenant data.",
  );
}
