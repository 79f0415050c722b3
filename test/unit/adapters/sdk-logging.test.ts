import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it, vi } from 'vitest';
import { kmsClient } from '#shared/adapters/crypto/kms-secret-cipher';
import { documentClient } from '#shared/adapters/dynamodb/client';
import { sesClient } from '#shared/adapters/mail/ses-client';
import { schedulerClient } from '#shared/adapters/scheduler/client';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { sqsClient } from '#shared/adapters/sqs/client';

const hasLoggerMiddleware = (client: { middlewareStack: { identify(): string[] } }) => client.middlewareStack.identify().some((entry) => entry.startsWith('loggerMiddleware'));

describe('AWS SDK clients without the SDK logger middleware', () => {
  it('is gone from every client of the service', () => {
    process.env.AWS_REGION ??= 'us-east-1';
    for (const client of [documentClient(), sqsClient(), schedulerClient(), sesClient(), kmsClient()]) expect(hasLoggerMiddleware(client)).toBe(false);
    expect(hasLoggerMiddleware(new S3Client({ region: 'us-east-1' }))).toBe(true);
    expect(hasLoggerMiddleware(withoutSdkLogger(new S3Client({ region: 'us-east-1' })))).toBe(false);
  });

  it('no longer builds the redacted copy of a call for a logger, and the call still answers', async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    // A handler that answers every call at once: the middleware chain runs, nothing leaves the process.
    const requestHandler = { handle: async () => ({ response: { statusCode: 200, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: new TextEncoder().encode('{"TableNames":["t"]}') } }) };
    const options = { region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, logger, requestHandler: requestHandler as never };

    expect((await new DynamoDBClient(options).send(new ListTablesCommand({}))).TableNames).toEqual(['t']);
    expect(logger.info).toHaveBeenCalledTimes(1);

    logger.info.mockClear();
    expect((await withoutSdkLogger(new DynamoDBClient(options)).send(new ListTablesCommand({}))).TableNames).toEqual(['t']);
    expect(logger.info).not.toHaveBeenCalled();
  });
});
