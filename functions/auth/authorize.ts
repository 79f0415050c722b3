import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { UnauthorizedError } from '#shared/domain/errors';
import { authenticate } from '#shared/services/api-keys';

/**
 * The API's Lambda REQUEST authorizer. API Gateway caches its answer per Authorization header,
 * so the policy allows every route of the stage: the tenant, not the route, is what it decides.
 * Throwing `Unauthorized` is how API Gateway is told to answer 401 (shaped as problem+json by
 * the API's gateway responses).
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  let identity;
  try {
    identity = await authenticate(authorization ?? undefined);
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new Error('Unauthorized');
    throw error;
  }
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
