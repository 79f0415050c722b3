import type { AttributeValue as SdkAttributeValue, _Record } from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';

/** The record as Lambda delivers it: region of the mapping, epoch seconds, binary as base64. */
export function toLambdaRecord(record: _Record, eventSourceARN: string, awsRegion: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion,
    dynamodb: {
      ...(stream.ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000) } : {}),
      ...(stream.Keys ? { Keys: toWireMap(stream.Keys) } : {}),
      ...(stream.NewImage ? { NewImage: toWireMap(stream.NewImage) } : {}),
      ...(stream.OldImage ? { OldImage: toWireMap(stream.OldImage) } : {}),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    eventSourceARN,
    // TTL deletions carry the service identity, which consumers use to tell expiry from deletes.
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

function toWireMap(map: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, toWire(value)]));
}

/** The SDK decodes binary into bytes; Lambda's JSON event carries it as base64. */
function toWire(value: SdkAttributeValue): AttributeValue {
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BS !== undefined) return { BS: value.BS.map((bytes) => Buffer.from(bytes).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toWire) };
  if (value.M !== undefined) return { M: toWireMap(value.M) };
  return value as AttributeValue;
}
