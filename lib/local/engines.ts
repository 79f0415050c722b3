import { startDynamoDbLocal } from '#lib/local/dynamodb-local';
import type { EngineEndpoints } from '#lib/local/provision';
import { startSqsLocal } from '#lib/local/sqs-local';

export interface Engines extends EngineEndpoints {
  /** Process id of DynamoDB Local, recorded so that a crashed runtime's engine can be stopped. */
  dynamodbPid: number;
  stop(): Promise<void>;
}

/** Starts the real engines the local runtime and the tests run against. */
export async function startEngines(options: { dynamoDataDir?: string } = {}): Promise<Engines> {
  const dynamo = await startDynamoDbLocal({ dataDir: options.dynamoDataDir });
  try {
    const sqs = await startSqsLocal();
    return {
      dynamodb: dynamo.endpoint,
      sqs: sqs.endpoint,
      dynamodbPid: dynamo.pid,
      async stop() {
        await sqs.stop();
        await dynamo.stop();
      },
    };
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
}
