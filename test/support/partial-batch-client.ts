import { BatchGetCommand, BatchWriteCommand, type BatchGetCommandOutput, type BatchWriteCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { NativeAttributeValue } from '@aws-sdk/util-dynamodb';

type Item = Record<string, NativeAttributeValue>;

/** Which requests of one batch call the wrapper holds back (reports unprocessed) instead of sending. */
export type Withhold = <T>(requests: T[]) => T[];

/** Holds back the second half of every batch (rounded down): each call makes progress, none is whole. */
export const secondHalf: Withhold = (requests) => requests.slice(Math.ceil(requests.length / 2));
/** Holds back the last request of every batch, for ever: the batch can never complete. */
export const lastOne: Withhold = (requests) => requests.slice(-1);

export interface PartialBatchClient {
  client: DynamoDBDocumentClient;
  /** Batch calls that reached the wrapper, and how many requests it held back in all. */
  stats: { batchCalls: number; withheld: number };
}

/**
 * The real document client (DynamoDB Local), except that BatchGetItem and BatchWriteItem calls
 * forward only some of their requests and report the others as `UnprocessedKeys` /
 * `UnprocessedItems`, as DynamoDB does under throttling. Every other command passes through.
 */
export function partialBatchClient(real: DynamoDBDocumentClient, withhold: Withhold): PartialBatchClient {
  const stats = { batchCalls: 0, withheld: 0 };

  async function send(command: unknown): Promise<unknown> {
    if (command instanceof BatchGetCommand) {
      stats.batchCalls++;
      const [[table, request]] = Object.entries(command.input.RequestItems ?? {});
      const keys = request.Keys ?? [];
      const held = withhold(keys);
      stats.withheld += held.length;
      const sent = keys.filter((key) => !held.includes(key));
      const answer: BatchGetCommandOutput = sent.length ? await real.send(new BatchGetCommand({ RequestItems: { [table]: { ...request, Keys: sent } } })) : { $metadata: {} };
      const leftover: Item[] = [...(answer.UnprocessedKeys?.[table]?.Keys ?? []), ...held];
      return { ...answer, Responses: answer.Responses ?? { [table]: [] }, UnprocessedKeys: leftover.length ? { [table]: { ...request, Keys: leftover } } : {} };
    }
    if (command instanceof BatchWriteCommand) {
      stats.batchCalls++;
      const [[table, requests]] = Object.entries(command.input.RequestItems ?? {});
      const held = withhold(requests);
      stats.withheld += held.length;
      const sent = requests.filter((request) => !held.includes(request));
      const answer: BatchWriteCommandOutput = sent.length ? await real.send(new BatchWriteCommand({ RequestItems: { [table]: sent } })) : { $metadata: {} };
      const leftover = [...(answer.UnprocessedItems?.[table] ?? []), ...held];
      return { ...answer, UnprocessedItems: leftover.length ? { [table]: leftover } : {} };
    }
    return real.send(command as Parameters<DynamoDBDocumentClient['send']>[0]);
  }

  const client = new Proxy(real, { get: (target, property, receiver) => (property === 'send' ? send : Reflect.get(target, property, receiver)) });
  return { client, stats };
}
