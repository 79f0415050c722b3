import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { UnauthorizedError } from '#shared/domain/errors';
import { addLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { observedHandler } from '#shared/observability/observed-handler';
import { authenticate } from '#shared/services/api-keys';

/**
 * The API's Lambda REQUEST authorizer. API Gateway caches its answer per Authorization header,
 * so the policy allows every route of the stage: the tenant, not the route, is what it decides.
 * Throwing `Unauthorized` is how API Gateway is told to answer 401 (shaped as problem+json by
 * the API's gateway responses).
 */
const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  let identity;
  try {
    identity = await authenticate(authorization ?? undefined);
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      logger.info('api key rejected');
      throw new Error('Unauthorized');
    }
    throw error;
  }
  addLogContext({ tenant_id: identity.tenantId, key_id: identity.keyId });
  const [arnPrefix, stage] = event.methodArn.split('/');
  return {
    principalId: identity.keyId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${arnPrefix}/${stage}/*` }],
    },
    context: { tenant_id: identity.tenantId, key_id: identity.keyId },
  };
};

/** `Unauthorized` is how the authorizer answers 401: an outcome, not a fault worth an error line. */
export const handler = observedHandler(authorize, { isExpectedError: (error) => error instanceof Error && error.message === 'Unauthorized' });
