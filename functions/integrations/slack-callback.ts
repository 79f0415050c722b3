import type { APIGatewayProxyResult } from 'aws-lambda';
import { toolProxy } from '#shared/adapters/lambda/tool-proxy-client';
import { SECURITY_HEADERS } from '#shared/http/response';
import { InvalidRequestError, NotFoundError, UnauthorizedError } from '#shared/domain/errors';
import type { SignedCallbackRequest } from '#shared/http/signed-callback-handler';

/** Slack's headers the proxy needs; nothing else of the request travels. */
const FORWARDED = ['x-slack-signature', 'x-slack-request-timestamp', 'x-slack-retry-num', 'x-slack-retry-reason', 'content-type'];

/** Hands a Slack call to the tool proxy (it alone holds the signing secret) and returns its answer as is. */
export async function forwardToProxy(endpoint: 'interactions' | 'events', request: SignedCallbackRequest<{ integration_id: string }>): Promise<APIGatewayProxyResult> {
  const headers = Object.fromEntries(FORWARDED.filter((name) => request.headers[name] !== undefined).map((name) => [name, request.headers[name]]));
  // A proxy that cannot be invoked is our outage (503), and Slack retries an event on a 5xx.
  const answer = await toolProxy.slackRequest({ action: 'slack_request', integration_id: request.params.integration_id, endpoint, headers, body: request.rawBody });
  if ('refused' in answer) {
    if (answer.refused === 'not_found') throw new NotFoundError('integration', request.params.integration_id);
    if (answer.refused === 'unauthorized') throw new UnauthorizedError(answer.detail);
    throw new InvalidRequestError(answer.detail);
  }
  // Slack's acknowledgement is an empty 200; a body (a challenge, a modal's errors) is JSON.
  return { statusCode: answer.status, headers: { ...SECURITY_HEADERS, 'Content-Type': answer.body === '' ? 'text/plain; charset=utf-8' : 'application/json', ...answer.headers }, body: answer.body };
}
