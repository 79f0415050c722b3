import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { UnauthorizedError } from '#shared/domain/errors';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { authenticate } from '#shared/services/authentication';

/**
 * The API's Lambda REQUEST authorizer: an API key or a person's access token (services/authentication.ts)
 * resolved to a tenant, principal and role. API Gateway caches its answer per Authorization header,
 * so the policy allows every route of the stage: the tenant, principal and role, not the route,
 * are what it decides; each route's chain checks the role against the route's least role.
 * Throwing `Unauthorized` is how API Gateway is told to answer 401 (shaped as problem+json by
 * the API's gateway responses).
 */
const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  let caller;
  try {
    caller = await authenticate(authorization ?? undefined);
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      logger.info('credentials rejected');
      throw new Error('Unauthorized');
    }
    throw error;
  }
  addLogContext({ tenant_id: caller.tenantId, [caller.principal.type === 'user' ? 'user_id' : 'key_id']: caller.principal.id });
  const [arnPrefix, stage] = event.methodArn.split('/');
  return {
    principalId: caller.principal.id,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnPrefix}/${stage}/*` }],
    },
    // Flat strings, as API Gateway passes them on; the route chain checks the role (tenant-context.ts).
    context: { tenant_id: caller.tenantId, ...(caller.principal.type === 'api_key' ? { key_id: caller.principal.id } : {}), principal_type: caller.principal.type, principal_id: caller.principal.id, ...(caller.principal.name ? { principal_name: caller.principal.name } : {}), role: caller.role, ...(caller.agent ? { agent: caller.agent } : {}) },
  };
};

/** `Unauthorized` is how the authorizer answers 401: an outcome, not a fault worth an error line. */
export const handler = observedHandler(authorize, { isExpectedError: (error) => error instanceof Error && error.message === 'Unauthorized' });
