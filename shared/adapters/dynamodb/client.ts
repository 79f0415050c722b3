import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getStringFromEnv, once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

const processClient = once(() =>
  DynamoDBDocumentClient.from(traced(withoutSdkLogger(new DynamoDBClient({
    // A database that stops answering must turn into a quick 503, never a hung request: at most
    // two attempts of 3 s each (plus a connect of 1 s), so a request answers within about 7 s
    // even when its first call hangs. Retried transactions are safe: the SDK sends the same
    // ClientRequestToken again, and DynamoDB applies a TransactWriteItems once per token.
    // Without `throwOnRequestTimeout` the HTTP handler only logs a warning at `requestTimeout`
    // and keeps waiting: a frozen database would hang every request.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true },
  }))), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  }),
);

let replacement: DynamoDBDocumentClient | undefined;

/**
 * The one DynamoDB client of a process. The endpoint comes from the SDK's standard
 * `AWS_ENDPOINT_URL_DYNAMODB` when set (the local runtime sets it), so no handler knows where it runs.
 */
export function documentClient(): DynamoDBDocumentClient {
  return replacement ?? processClient();
}

/**
 * Tests only: every repository sends through `client` (a wrapper of the real one, e.g. one that
 * leaves part of each batch unprocessed) until called again without one.
 */
export function replaceDocumentClient(client?: DynamoDBDocumentClient): void {
  replacement = client;
}

export const tableName = once(() => getStringFromEnv('TABLE_NAME'));
