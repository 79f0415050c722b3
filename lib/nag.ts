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
import { CfnElement, DefaultStackSynthesizer, Names, Stack, Validations, type App, type IResolvable } from 'aws-cdk-lib';
import type { IRestApi, Method, Stage } from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, type IRole } from 'aws-cdk-lib/aws-iam';
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

/**
 * The IAM5 finding id for a wildcard resource, as cdk-nag renders it. Build `resource` from the
 * stack's own partition, account and region (`Stack.of(scope)`), never from their token forms
 * (`<AWS::Region>`): the CDK CLI gives the stack a concrete environment, and an ARN is then
 * rendered with its real values (`us-east-1`), which a token-form acknowledgement does not match.
 */
function wildcardResource(scope: IConstruct, resource: string | IResolvable): string {
  return `IAM5[Resource::${flattenCfnReference(Stack.of(scope).resolve(resource))}]`;
}

/** The IAM4 finding id for an AWS managed policy, its ARN rendered as CDK renders it for the stack. */
function managedPolicy(scope: IConstruct, name: string): string {
  return `IAM4[Policy::${flattenCfnReference(Stack.of(scope).resolve(ManagedPolicy.fromAwsManagedPolicyName(name).managedPolicyArn))}]`;
}

/** Every object of the CDK bootstrap's assets bucket of the stack's account and region (`cdk-<qualifier>-assets-...`). */
function bootstrapAssetObjects(scope: IConstruct): string {
  const stack = Stack.of(scope);
  const synthesizer = stack.synthesizer;
  const qualifier = (synthesizer instanceof DefaultStackSynthesizer && synthesizer.bootstrapQualifier) || DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  return `arn:${stack.partition}:s3:::cdk-${qualifier}-assets-${stack.account}-${stack.region}/*`;
}

/**
 * The same finding id as it reads in a policy of a nested stack (a route group's function): there,
 * a reference to a resource of `stack` is a parameter, which CDK names after the resource and the
 * attribute (`referenceto<unique id><attribute>`, core's generateUniqueId).
 */
function nestedWildcardResource(stack: Stack, resource: string | IResolvable): string {
  const elements = new Map<string, CfnElement>();
  for (const node of stack.node.findAll()) if (CfnElement.isCfnElement(node) && Stack.of(node) === stack) elements.set(stack.resolve(node.logicalId) as string, node);
  const parameter = (id: string, attribute: string) => {
    const element = elements.get(id);
    return element ? { Ref: `referenceto${Names.nodeUniqueId(element.node)}${attribute}` } : undefined;
  };
  const asParameters = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(asParameters);
    if (!value || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    if (typeof object.Ref === 'string') return parameter(object.Ref, 'Ref') ?? object;
    const getAtt = object['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return parameter(getAtt[0] as string, getAtt[1] as string) ?? object;
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, asParameters(item)]));
  };
  return `IAM5[Resource::${flattenCfnReference(asParameters(stack.resolve(resource)))}]`;
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
    'Pinned to nodejs24.x, the runtime the bundles target (esbuild target node24) and the tests exercise; moving to a newer Node.js is a deliberate upgrade of runtime and bundling target together, not one a CDK release should trigger.',
  );
}

/** Grants on the table's indexes (`<Table.Arn>/index/*`), to any role of the stack. */
export function acknowledgeIndexGrants(table: ITable): void {
  const reason = "Queries on this table's own global secondary indexes (CDK's table grants): the pattern is bounded by the table ARN, and every index serves access patterns of the same tenant-partitioned items.";
  acknowledge(Stack.of(table), wildcardResource(table, `${table.tableArn}/index/*`), reason);
  // The route functions' grants, in the route groups' nested stacks.
  acknowledge(Stack.of(table), nestedWildcardResource(Stack.of(table), `${table.tableArn}/index/*`), reason);
}

/** Grants on every object of the export bucket (`<Bucket.Arn>/*`), and the bucket's access logging. */
export function acknowledgeExportObjects(bucket: IBucket): void {
  // Granted to the export route's function, in its route group's nested stack.
  acknowledge(
    Stack.of(bucket),
    nestedWildcardResource(Stack.of(bucket), bucket.arnForObjects('*')),
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
    managedPolicy(api, 'service-role/AmazonAPIGatewayPushToCloudWatchLogs'),
    "The account-level role API Gateway uses to write execution and access logs; AWS's managed policy is the documented one, and API Gateway creates its execution log groups itself, so a hand-written policy would need the same actions on the same log groups.",
  );
  acknowledge(
    stage,
    'APIG3',
    'No WAF web ACL by default: every route but /health needs an API key, the stage throttles the whole API, per-tenant rate limits and body size limits run in the handlers, and bodies are validated with zod. The managed rule sets target browser-facing sites; at about $5 per month plus per-request charges it is left to the operator (attach one with Firewall Manager or to the stage ARN).',
  );
}

/** The API's methods, wherever they are (the route groups' nested stacks): why no Cognito authorizer. */
export function acknowledgeTokenAuthorizer(scope: IConstruct): void {
  acknowledge(
    scope,
    'COG4',
    "A Bearer credential is either a Gatehouse API key (servers, the CLI) or a person's Cognito access token (the dashboard): one REQUEST authorizer resolves both to a tenant and a role, verifying tokens against the user pool's JWKS, and caches the answer per Authorization header. A Cognito authorizer would refuse every API key.",
  );
}

/** A method open without authorization on purpose (`auth: 'none'` in the route table: /health, /v1/problems). */
export function acknowledgePublicMethod(method: Method): void {
  acknowledge(
    method,
    'APIG4',
    "Declared auth: 'none' in the route table: the health check for load balancers and uptime probes and the static documentation of the API (problem types, OpenAPI), which read no tenant data; and Slack's callbacks (interactions, events), which carry no API key: the tool proxy verifies each request's Slack signature with the integration's signing secret before acting on it.",
  );
}

/** The user pool of people who sign in to the dashboard. */
export function acknowledgeUserPoolFindings(pool: IConstruct): void {
  acknowledge(
    pool,
    'COG2',
    'MFA is optional (TOTP): each person can turn it on, and a company IdP federated into the pool brings its own MFA; requiring it would lock out every federated and first-time user until they enrol an authenticator. An operator can make it required on the pool.',
  );
  acknowledge(
    pool,
    'COG8',
    "The Essentials feature plan: managed login with its branding, TOTP MFA and federation are in it; the Plus plan's threat protection is billed per active user and is left to the operator, who can switch the pool's plan without replacing it.",
  );
}

/** The dashboard's distribution and its site bucket. */
export function acknowledgeDashboardFindings(distribution: IConstruct, bucket: IBucket): void {
  acknowledge(
    distribution,
    'CFR1',
    'The dashboard and API serve tenants wherever they are; access is by sign-in and API key, not by country. Geo restrictions can be added on the distribution where a policy requires them.',
  );
  acknowledge(
    distribution,
    'CFR2',
    'No WAF web ACL by default, as for the API stage: every API route but the public documentation needs a credential, the stage throttles, and per-tenant rate limits run in the handlers; the site is static files. An operator can attach a web ACL (CloudFront scope, us-east-1) to the distribution.',
  );
  acknowledge(
    distribution,
    'CFR3',
    "No CloudFront access logs: every API request is logged by the stage's access log (with the caller and tenant), and the site's files are public build output. Standard logging needs a log bucket with ACLs enabled, which the account may not allow.",
  );
  acknowledge(
    distribution,
    'CFR4',
    "Without a custom domain the distribution uses CloudFront's default certificate (*.cloudfront.net), which cannot set a minimum TLS version; browsers negotiate TLS 1.2 or 1.3 with it. With `gatehouse:dashboardDomain` and its ACM certificate the distribution sets TLSv1.2_2021 and this rule holds without the acknowledgement.",
  );
  acknowledge(
    bucket,
    'S1',
    'The bucket holds only the built dashboard, readable only through CloudFront (origin access control) and written only by the deploy; server access logs would need a second bucket and record nothing of any tenant.',
  );
}

/**
 * CDK's BucketDeployment, which copies the dashboard into its bucket at deploy time: its
 * provider function (a stack-level singleton) and the role we give it.
 */
export function acknowledgeSiteDeployment(role: IRole, bucket: IBucket): void {
  const reason = "CDK's BucketDeployment grants: it reads the deployment's asset zip from the CDK assets bucket (s3:GetObject*, s3:GetBucket*, s3:List* on the bootstrap assets bucket) and syncs the files into the site bucket (s3:DeleteObject*, s3:PutObject*, s3:Abort* on its objects); the role belongs to that deploy-time function only.";
  for (const id of ['Action::s3:GetBucket*', 'Action::s3:GetObject*', 'Action::s3:List*', 'Action::s3:Abort*', 'Action::s3:DeleteObject*']) acknowledge(role, `IAM5[${id}]`, reason);
  acknowledge(role, wildcardResource(role, bucket.arnForObjects('*')), reason);
  acknowledge(role, wildcardResource(role, bootstrapAssetObjects(role)), reason);
  const stack = Stack.of(bucket);
  for (const provider of stack.node.children.filter((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    acknowledge(
      provider,
      'L1',
      "CDK's BucketDeployment provider function: its runtime and the AWS CLI layer it runs are chosen and updated by aws-cdk-lib together, not by this project.",
    );
  }
}

/** SES receiving's message bucket, and the function that reads the messages SES stored (inbound-mail.ts). */
export function acknowledgeInboundMailFindings(bucket: IBucket, receiverRole: IRole, prefix: string): void {
  acknowledge(
    receiverRole,
    wildcardResource(receiverRole, bucket.arnForObjects(`${prefix}*`)),
    "Each message's key is the SES message id, known only when the mail arrives; the statement allows s3:GetObject only, on the receipt rule's prefix of this one bucket.",
  );
  acknowledge(
    bucket,
    'S1',
    "Only SES writes (for the one receipt rule, aws:SourceArn) and only the receive-mail function reads; that function logs its work under each message's SES message id, and messages expire after 30 days. Server access logs would need a second bucket for no extra audit value; CloudTrail S3 data events can be enabled account-wide if required.",
  );
}
