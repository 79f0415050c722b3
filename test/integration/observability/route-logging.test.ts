import type { APIGatewayProxyEvent, Context, SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { messageBody, parseMessageBody } from '#shared/adapters/sqs/message-body';
import { ConflictError } from '#shared/domain/errors';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { withLogContext } from '#shared/observability/log-context';
import { logger } from '#shared/observability/logger';
import { lambdaContext } from '#lib/local/handler-loader';
import { captureJsonOutput } from '../../support/captured-output';
import { provisionForTest } from '../../support/provisioned';

// Before the logger exists: Powertools resets the level to the configured one every invocation.
vi.hoisted(() => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
});

/** A route as every API route is built, logging once from inside, or failing with a domain error. */
const route = routeHandler({ params: z.object({ task_id: z.string() }) }, async ({ params }) => {
  logger.info('inside the route');
  if (params.task_id === 'tsk_conflict') throw new ConflictError('task_not_cancellable', 'No.');
  return jsonResponse(200, { ok: true });
});

function apiEvent(taskId: string, headers: Record<string, string> = {}): APIGatewayProxyEvent {
  return {
    resource: '/tasks/{task_id}',
    path: `/tasks/${taskId}`,
    httpMethod: 'GET',
    headers,
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { task_id: taskId },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'api-req-1', resourcePath: '/tasks/{task_id}', httpMethod: 'GET', authorizer: { tenant_id: 'tenant-logs', principal_type: 'api_key', principal_id: 'key_test', role: 'admin' } } as never,
  };
}

describe('route log lines', () => {
  let output: ReturnType<typeof captureJsonOutput>;
  // Every route spends its tenant's request budget in the table before anything else runs.
  beforeAll(async () => {
    await provisionForTest('route-logs');
  });
  beforeEach(() => {
    output = captureJsonOutput();
  });
  afterEach(() => {
    output.restore();
  });

  it('carry tenant, task, request, Lambda request and correlation ids, and one access line per request', async () => {
    const context = lambdaContext('get-task', 10) as unknown as Context;

    const response = await route(apiEvent('tsk_1', { 'X-Correlation-Id': 'checkout-42' }), context);

    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'X-Correlation-Id': 'checkout-42' });
    const lines = output.json();
    expect(lines.map((line) => line.message)).toEqual(['inside the route', 'request']);
    for (const line of lines) {
      expect(line).toMatchObject({ service: 'gatehouse', tenant_id: 'tenant-logs', task_id: 'tsk_1', request_id: 'api-req-1', correlation_id: 'checkout-42', function_request_id: context.awsRequestId, function_name: 'get-task' });
    }
    expect(lines[1]).toMatchObject({ level: 'INFO', route: 'GET /tasks/{task_id}', status: 200, duration_ms: expect.any(Number) });
  });

  it('use the API request id as correlation id when the header is missing or not a short token', async () => {
    const context = lambdaContext('get-task', 10) as unknown as Context;

    const response = await route(apiEvent('tsk_2', { 'x-correlation-id': '{"injected":true}' }), context);

    expect(response.headers).toMatchObject({ 'X-Correlation-Id': 'api-req-1' });
    expect(output.json().map((line) => line.correlation_id)).toEqual(['api-req-1', 'api-req-1']);
  });

  it('put the problem code of an error answer on the access line', async () => {
    const response = await route(apiEvent('tsk_conflict'), lambdaContext('get-task', 10) as unknown as Context);

    expect(response.statusCode).toBe(409);
    expect(output.json().find((line) => line.message === 'request')).toMatchObject({ status: 409, code: 'task_not_cancellable', correlation_id: 'api-req-1' });
  });
});

describe('correlation id in queue messages', () => {
  const schema = z.object({ tenant_id: z.string(), task_id: z.string() }).strict();
  const record = (body: string) => ({ messageId: 'm-1', body }) as SQSRecord;

  it('is added by the sender from the current context and handed to the consumer beside its strict fields', () => {
    const body = withLogContext({ correlation_id: 'corr-7' }, () => messageBody({ tenant_id: 't', task_id: 'tsk_1' }));

    expect(JSON.parse(body)).toEqual({ tenant_id: 't', task_id: 'tsk_1', correlation_id: 'corr-7' });
    expect(parseMessageBody(record(body), schema, 'test')).toEqual({ tenant_id: 't', task_id: 'tsk_1', correlation_id: 'corr-7' });
  });

  it('is optional: a message sent before it existed still parses, and a malformed one is ignored', () => {
    expect(parseMessageBody(record('{"tenant_id":"t","task_id":"tsk_1"}'), schema, 'test')).toEqual({ tenant_id: 't', task_id: 'tsk_1' });
    expect(parseMessageBody(record('{"tenant_id":"t","task_id":"tsk_1","correlation_id":"a b"}'), schema, 'test')).toEqual({ tenant_id: 't', task_id: 'tsk_1' });
    expect(messageBody({ tenant_id: 't' })).toBe('{"tenant_id":"t"}');
  });
});
