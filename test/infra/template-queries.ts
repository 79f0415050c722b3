import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { authorizer, routes, type RouteDefinition } from '#functions/routes';
import { consumers, eventFanOut, eventTriggerConsumer, recurringJobs, scheduleTargetAccess, scheduleTargets, taskWorker, type ConsumerDefinition } from '#shared/config/topology';
import type { ScheduleTarget } from '#shared/domain/scheduler';
import { functionId as constructIdOf, type AccessDeclaration } from '#lib/constructs/gatehouse-function';
import { receiveMail } from '#lib/constructs/inbound-mail';

/** A CloudFormation resource as `Template.findResources` returns it. */
export interface CfnResource {
  Type: string;
  /** Untyped CloudFormation JSON: tests read whichever properties they assert on. */
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  Metadata?: { 'aws:cdk:path'?: string };
}

export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** The logical id in the first `Fn::GetAtt` found anywhere in `value` (integration URIs, role ARNs). */
export function getAttTarget(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map(getAttTarget).find(Boolean);
  if (value && typeof value === 'object') {
    const getAtt = (value as Record<string, unknown>)['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return getAtt[0] as string;
    return Object.values(value).map(getAttTarget).find(Boolean);
  }
  return undefined;
}

/** Full paths (`/tasks/{task_id}`) of the API's resources, by logical id. */
function resourcePaths(template: Template): Map<string, string> {
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, CfnResource>;
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const { ParentId, PathPart } = resources[id].Properties;
    const parent: string | undefined = ParentId.Ref;
    const path = `${parent ? pathOf(parent) : ''}/${PathPart}`;
    paths.set(id, path);
    return path;
  };
  Object.keys(resources).forEach(pathOf);
  return paths;
}

/** The AWS::ApiGateway::Method serving a route, found by its resource's path and HTTP method. */
export function methodFor(template: Template, route: RouteDefinition): CfnResource {
  const paths = resourcePaths(template);
  const methods = Object.values(template.findResources('AWS::ApiGateway::Method')) as CfnResource[];
  const matches = methods.filter(
    ({ Properties }) => Properties.HttpMethod === route.method && paths.get(Properties.ResourceId?.Ref) === route.path,
  );
  if (matches.length !== 1) throw new Error(`expected one method for ${route.method} ${route.path}, found ${matches.length}`);
  return matches[0];
}

/** Logical id of the Lambda function serving a route: the one its API method invokes. */
export function functionIdFor(template: Template, route: RouteDefinition): string {
  const functionId = getAttTarget(methodFor(template, route).Properties.Integration.Uri);
  if (!functionId) throw new Error(`no function behind ${route.method} ${route.path}`);
  return functionId;
}

/** Every statement of every IAM policy attached to a function's execution role. */
export function roleStatements(template: Template, functionId: string): PolicyStatement[] {
  const fn = template.findResources('AWS::Lambda::Function')[functionId] as CfnResource;
  const roleId = getAttTarget(fn.Properties.Role);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as CfnResource[];
  return policies
    .filter(({ Properties }) => (Properties.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(({ Properties }) => Properties.PolicyDocument.Statement as PolicyStatement[]);
}

/** The actions of a list of statements, flattened. */
export function actionsOf(statements: PolicyStatement[]): string[] {
  return statements.flatMap(({ Action }) => (Array.isArray(Action) ? Action : [Action]));
}

/** Logical id of the queue a topology definition names, e.g. `tool-calls`. */
export function queueIdFor(template: Template, queueName: string): string {
  return idAtPath(template, 'AWS::SQS::Queue', `Gatehouse/Tasks/${queueName}/Resource`);
}

/** Logical id of a consumer's function: the one the event source mappings of its queues invoke. */
export function consumerId(template: Template, consumer: ConsumerDefinition): string {
  const queueIds = consumer.queues.map((name) => queueIdFor(template, name));
  const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as CfnResource[];
  const ids = new Set(mappings.filter(({ Properties }) => queueIds.includes(getAttTarget(Properties.EventSourceArn) ?? '')).map(({ Properties }) => Properties.FunctionName.Ref as string));
  if (ids.size !== 1) throw new Error(`expected one function consuming ${consumer.queues.join(', ')}, found ${ids.size}`);
  return [...ids][0];
}

/** Logical id of the task worker. */
export function workerId(template: Template): string {
  return consumerId(template, taskWorker);
}

/** The table's logical id (the one table of the stack). */
export function tableId(template: Template): string {
  const ids = Object.keys(template.findResources('AWS::DynamoDB::GlobalTable'));
  if (ids.length !== 1) throw new Error(`expected one table, found ${ids.length}`);
  return ids[0];
}

/** The event source mappings reading the table's stream. */
export function streamMappings(template: Template): CfnResource[] {
  const table = tableId(template);
  return (Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as CfnResource[]).filter(({ Properties }) => {
    const getAtt = Properties.EventSourceArn?.['Fn::GetAtt'];
    return Array.isArray(getAtt) && getAtt[0] === table && getAtt[1] === 'StreamArn';
  });
}

/** The functions the table's stream mappings invoke: the webhooks' fan-out and the event triggers' consumer. */
export function streamConsumerIds(template: Template): Set<string> {
  return new Set(streamMappings(template).map(({ Properties }) => Properties.FunctionName.Ref as string));
}

/** Logical id of the fan-out function (`eventFanOut`), on the table's stream. */
export function fanOutId(template: Template): string {
  const id = idAtPath(template, 'AWS::Lambda::Function', `Gatehouse/Webhooks/${constructIdOf(eventFanOut.handler)}/Resource`);
  if (!streamConsumerIds(template).has(id)) throw new Error('the fan-out function is not on the table stream');
  return id;
}

/** Logical id of the event triggers' consumer (`eventTriggerConsumer`), on the table's stream. */
export function eventTriggerConsumerId(template: Template): string {
  const id = idAtPath(template, 'AWS::Lambda::Function', `Gatehouse/EventTriggers/${constructIdOf(eventTriggerConsumer.handler)}/Resource`);
  if (!streamConsumerIds(template).has(id)) throw new Error('the event triggers consumer is not on the table stream');
  return id;
}

/** Logical id of a schedule target's function. */
export function scheduleTargetId(template: Template, target: ScheduleTarget): string {
  return idAtPath(template, 'AWS::Lambda::Function', `Gatehouse/ScheduleTargets/${constructIdOf(scheduleTargets[target])}/Resource`);
}

/** Logical id of a recurring job's function (topology.ts `recurringJobs`), by its handler file. */
export function recurringJobId(template: Template, handlerFile: string): string {
  return idAtPath(template, 'AWS::Lambda::Function', `Gatehouse/RecurringJobs/${constructIdOf(handlerFile)}/Resource`);
}

/** A function the stack builds from a declaration, with the access it declares. */
export interface DeclaredFunction {
  /** For test names: a route's method and path, or the consumer's or target's name. */
  name: string;
  id: string;
  access: AccessDeclaration;
}

/** How many functions the declarations call for: routes, authorizer, queue consumers, schedule targets, the two stream consumers, recurring jobs, SES receiving's. */
export const DECLARED_FUNCTION_COUNT = routes.length + 1 + consumers.length + Object.keys(scheduleTargets).length + 2 + recurringJobs.length + 1;

/** Every function of the template, found through its declaration. */
export function declaredFunctions(template: Template): DeclaredFunction[] {
  const authorizers = Object.values(template.findResources('AWS::ApiGateway::Authorizer')) as CfnResource[];
  if (authorizers.length !== 1) throw new Error(`expected one authorizer, found ${authorizers.length}`);
  return [
    { name: 'authorizer', id: getAttTarget(authorizers[0].Properties.AuthorizerUri) ?? '', access: authorizer.access },
    ...routes.map((route) => ({ name: `${route.method} ${route.path}`, id: functionIdFor(template, route), access: route.access })),
    ...consumers.map((consumer) => ({ name: consumer.name, id: consumerId(template, consumer), access: consumer.access })),
    ...(Object.keys(scheduleTargets) as ScheduleTarget[]).map((target) => ({ name: target, id: scheduleTargetId(template, target), access: scheduleTargetAccess[target] })),
    { name: eventFanOut.name, id: fanOutId(template), access: eventFanOut.access },
    { name: eventTriggerConsumer.name, id: eventTriggerConsumerId(template), access: eventTriggerConsumer.access },
    ...recurringJobs.map((job) => ({ name: job.name, id: recurringJobId(template, job.handler), access: job.access })),
    { name: receiveMail.name, id: receiveMailId(template), access: receiveMail.access },
  ];
}

/** Logical id of the function SES receiving invokes (`receiveMail`, inbound-mail.ts). */
export function receiveMailId(template: Template): string {
  return idAtPath(template, 'AWS::Lambda::Function', `Gatehouse/InboundMail/${constructIdOf(receiveMail.handler)}/Resource`);
}

/** Logical id of the customer-managed key of the table, its stream, and every queue and dead-letter queue. */
export function dataKeyId(template: Template): string {
  return idAtPath(template, 'AWS::KMS::Key', 'Gatehouse/Keys/DataKey/Resource');
}

/** Logical id of the customer-managed key webhook signing secrets are encrypted under. */
export function secretsKeyId(template: Template): string {
  return idAtPath(template, 'AWS::KMS::Key', 'Gatehouse/Webhooks/SecretsKey/Resource');
}

/** Logical id of the key integration credentials are sealed under (only the tool proxy opens them). */
export function integrationsKeyId(template: Template): string {
  return idAtPath(template, 'AWS::KMS::Key', 'Gatehouse/Keys/IntegrationsKey/Resource');
}

/** Logical id of the resource at a construct path such as `Gatehouse/Tasks/tasks-high/Resource`. */
export function idAtPath(template: Template, type: string, path: string): string {
  const ids = Object.entries(template.findResources(type) as Record<string, CfnResource>)
    .filter(([, resource]) => resource.Metadata?.['aws:cdk:path'] === path)
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one ${type} at ${path}, found ${ids.length}`);
  return ids[0];
}

/**
 * CDK's deploy-time provider functions, which are not Gatehouse's: the one copying the dashboard
 * into its bucket (BucketDeployment) and the one applying the app client's OAuth settings
 * (AwsCustomResource). Both are stack-level singletons.
 */
const PROVIDER_PATHS = [/^Gatehouse\/Custom::CDKBucketDeployment[^/]*\//, /^Gatehouse\/AWS679f53fac002430cb0da5b7982bd2287\//];

/** Logical ids of CDK's deploy-time provider functions (see PROVIDER_PATHS). */
export function providerFunctionIds(template: Template): string[] {
  return Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>)
    .filter(([, fn]) => PROVIDER_PATHS.some((pattern) => pattern.test(fn.Metadata?.['aws:cdk:path'] ?? '')))
    .map(([id]) => id);
}

/** Gatehouse's own functions (every GatehouseFunction), by logical id: all but CDK's providers. */
export function serviceFunctions(template: Template): Record<string, CfnResource> {
  const providers = new Set(providerFunctionIds(template));
  return Object.fromEntries(Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, CfnResource>).filter(([id]) => !providers.has(id)));
}

/**
 * The dashboard's config.json as the deploy writes it: read from the staged asset, each deploy-time
 * marker replaced by the reference it stands for (its JSON, with single quotes).
 */
export function deployedDashboardConfig(template: Template, assemblyDir: string): Record<string, any> {
  const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')) as CfnResource[];
  const entry = deployments.find(({ Properties }) => Properties.SourceMarkers?.length === 2)!.Properties;
  const markers = entry.SourceMarkers[1] as Record<string, unknown>;
  const key = (entry.SourceObjectKeys[1] as string).replace(/\.zip$/, '');
  let text = readFileSync(join(assemblyDir, `asset.${key}`, 'config.json'), 'utf8');
  for (const [marker, value] of Object.entries(markers)) text = text.replaceAll(marker, JSON.stringify(value).replaceAll('"', "'"));
  return JSON.parse(text);
}
