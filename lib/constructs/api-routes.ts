import { Duration, NestedStack } from 'aws-cdk-lib';
import { AuthorizationType, AwsIntegration, Resource, type IAuthorizer, type IResource, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '#functions/routes';
import { functionId, GatehouseFunction, type DataResources } from '#lib/constructs/gatehouse-function';
import { streamingFunctionProps, streamingIntegration } from '#lib/constructs/streaming';
import { acknowledgePublicMethod, acknowledgeTokenAuthorizer } from '#lib/nag';

/** Below API Gateway's 29 s integration limit, so a slow handler ends as our problem+json, not a gateway 504. */
export const HANDLER_TIMEOUT = Duration.seconds(10);
/**
 * A route that waits (a worker's claim, up to 20 s) mostly sleeps between reads: Lambda bills its
 * memory for every second of the wait, so it runs small (docs/benchmarks.md prices the wait).
 */
export const WAITING_ROUTE_MEMORY_MB = 256;

/**
 * A route function's timeout and memory: a waiting route's timeout covers its wait, under API
 * Gateway's 29 s; a streaming route runs up to Lambda's 15 minutes (streaming.ts).
 */
export function sizeOf(route: Pick<RouteDefinition, 'waitsSeconds' | 'streaming'>): { timeout: Duration; memorySize?: number; environment?: Record<string, string> } {
  if (route.streaming) return streamingFunctionProps();
  if (!route.waitsSeconds) return { timeout: HANDLER_TIMEOUT };
  return { timeout: Duration.seconds(Math.min(28, route.waitsSeconds + HANDLER_TIMEOUT.toSeconds() / 2)), memorySize: WAITING_ROUTE_MEMORY_MB };
}

/** A route group: the routes under one first path segment (`/tasks`, `/tasks/{task_id}/cancel`, ...). */
export interface RouteGroup {
  /** The first path segment, e.g. `tasks` or `api-keys`. */
  segment: string;
  routes: RouteDefinition[];
}

/**
 * The API's routes grouped by their first path segment, in route-table order. The group is read
 * from the path alone, so a new route lands in its group, or opens a new one, without a CDK change;
 * every route of a group hangs under the same top-level API resource, which the group creates.
 */
export function routeGroups(apiRoutes: readonly RouteDefinition[]): RouteGroup[] {
  const groups = new Map<string, RouteDefinition[]>();
  for (const route of apiRoutes) {
    const segment = route.path.split('/')[1];
    if (!segment) throw new Error(`Route ${route.method} ${route.path} has no path segment to group it by.`);
    groups.set(segment, [...(groups.get(segment) ?? []), route]);
  }
  return [...groups].map(([segment, routes]) => ({ segment, routes }));
}

/** `api-keys` → `ApiKeys`, `openapi.json` → `OpenapiJson`: the construct id of a group's nested stack. */
export function groupId(segment: string): string {
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export interface RouteGroupStackProps {
  api: RestApi;
  group: RouteGroup;
  authorizer: IAuthorizer;
  resources: DataResources;
}

/**
 * One route group of the REST API in a nested stack of its own: its top-level API resource and
 * everything under it, one function per route, and the role API Gateway invokes them with. The
 * resources and methods belong to the root stack's `RestApi` itself (not an imported one), so the
 * API's automatic deployment still hashes every method into its logical id (a changed route
 * redeploys the stage) and waits for this stack.
 */
export class RouteGroupStack extends NestedStack {
  /** The function of each streaming route of the group, by route path: the stack hands them the sign-in settings. */
  public readonly streamingFunctions = new Map<string, GatehouseFunction>();

  public constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, { description: `Gatehouse API routes under /${props.group.segment}` });
    const { api, group, authorizer, resources } = props;
    acknowledgeTokenAuthorizer(this);

    // API Gateway invokes the route functions with a role of the group, allowed to invoke exactly
    // them, instead of one resource-based Lambda permission per method (CDK's LambdaIntegration).
    const invokeRole = new Role(this, 'InvokeRole', { assumedBy: new ServicePrincipal('apigateway.amazonaws.com'), description: `API Gateway invokes the API route functions under /${group.segment} with this role` });
    const top = new Resource(this, 'Path', { parent: api.root, pathPart: group.segment });
    for (const route of group.routes) {
      const fn = new GatehouseFunction(this, functionId(route.handler), { handlerFile: route.handler, ...sizeOf(route) });
      fn.bindData(route.access, resources);
      invokeRole.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
      if (route.streaming) this.streamingFunctions.set(route.path, fn);
      const method = resourceFor(top, route.path).addMethod(
        route.method,
        // What LambdaIntegration builds (a Lambda proxy integration), with the role as credentials;
        // a streaming route's streams its answer (STREAM response transfer mode).
        route.streaming
          ? streamingIntegration(fn, invokeRole)
          : new AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${fn.functionArn}/invocations`, options: { credentialsRole: invokeRole } }),
        route.auth === 'api_key' ? { authorizer, authorizationType: AuthorizationType.CUSTOM } : { authorizationType: AuthorizationType.NONE },
      );
      if (route.auth === 'none') acknowledgePublicMethod(method);
    }
  }
}

/** The resource of `path` (`/tasks/{task_id}/cancel`) under its group's top-level resource (`/tasks`). */
function resourceFor(top: IResource, path: string): IResource {
  const rest = path.split('/').slice(2).join('/');
  return rest ? top.resourceForPath(rest) : top;
}
