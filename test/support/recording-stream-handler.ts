import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

interface Recording {
  /** Every invocation's records, retries included. */
  invocations: DynamoDBRecord[][];
  /** Records handled successfully, in the order they were handled. */
  processed: DynamoDBRecord[];
  /** How often each record (by eventID) has failed so far. */
  failures: Map<string, number>;
}

/**
 * A stream consumer for poller tests, kept on `globalThis` so that the test and the copy the
 * poller imports share it. A record whose NewImage has `fail` set is reported in
 * `batchItemFailures` (`fail: N` for its first N deliveries, `fail: 'always'` for every one);
 * `throw: N` makes the whole invocation throw on the record's first N deliveries. Like a consumer
 * that must keep order, it stops at the first failing record and reports it and all after it.
 */
export const recording: Recording = ((globalThis as { __streamRecording?: Recording }).__streamRecording ??= { invocations: [], processed: [], failures: new Map() });

export function resetRecording(): void {
  recording.invocations.length = 0;
  recording.processed.length = 0;
  recording.failures.clear();
}

/** Whether this delivery of the record should fail, counting it when it does. */
function failsNow(record: DynamoDBRecord, attribute: 'fail' | 'throw'): boolean {
  const setting = record.dynamodb?.NewImage?.[attribute];
  if (!setting) return false;
  const key = `${attribute}:${record.eventID}`;
  const failedSoFar = recording.failures.get(key) ?? 0;
  if (setting.S !== 'always' && failedSoFar >= Number(setting.N ?? 1)) return false;
  recording.failures.set(key, failedSoFar + 1);
  return true;
}

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  recording.invocations.push(event.Records);
  const handled: DynamoDBRecord[] = [];
  for (const [index, record] of event.Records.entries()) {
    if (failsNow(record, 'throw')) throw new Error(`recording handler told to throw at ${record.eventID}`);
    if (failsNow(record, 'fail')) {
      recording.processed.push(...handled);
      return { batchItemFailures: event.Records.slice(index).map((failed) => ({ itemIdentifier: failed.dynamodb!.SequenceNumber! })) };
    }
    handled.push(record);
  }
  recording.processed.push(...handled);
  return { batchItemFailures: [] };
};
