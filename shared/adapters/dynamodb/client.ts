import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getStringFromEnv, once } from '#shared/config/env';
import { traced } from '#shared/observability/tracer';

/**
 * The one DynamoDB client of a process. The endpoint comes from the SDK's standard
 * `AWS_ENDPOINT_URL_DYNAMODB` when set (the local runtime sets it), so no handler knows where it runs.
 */
export const documentClient = once(() =>
  DynamoDBDocumentClient.from(traced(new DynamoDBClient({
    maxAttempts: 3,
    // A database that stops answering must turn into a quick 503, never a hung request.
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
  })), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
);

export const tableName = once(() => getStringFromEnv('TABLE_NAME'));
