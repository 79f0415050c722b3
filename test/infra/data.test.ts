import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, it } from 'vitest';
import { GLOBAL_SECONDARY_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE, projectionOf } from '#shared/adapters/dynamodb/table-definition';
import { synthGatehouse } from './synth';

const keySchema = (partitionKey: string, sortKey: string) => [
  { AttributeName: partitionKey, KeyType: 'HASH' },
  { AttributeName: sortKey, KeyType: 'RANGE' },
];

describe('table', () => {
  let template: Template;
  beforeAll(() => {
    template = synthGatehouse();
  }, 120_000);

  it('is the one table, keyed as table-definition.ts declares', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    template.resourceCountIs('AWS::DynamoDB::Table', 0);

    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: keySchema(TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey),
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: TABLE_KEYS.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE_KEYS.sortKey, AttributeType: 'S' },
      ]),
    });
  });

  it('bills per request, expires items on the TTL attribute and streams both images', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
  });

  it('has exactly the indexes of the definition, with string keys and the projections it declares', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      GlobalSecondaryIndexes: GLOBAL_SECONDARY_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: projectionOf(index),
      })),
      AttributeDefinitions: Match.arrayWith(
        GLOBAL_SECONDARY_INDEXES.flatMap((index) => [
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ]),
      ),
    });
  });

  it('survives stack deletion and accidents: retained, deletion-protected, point-in-time recovery', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    });
  });
});
