import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { GLOBAL_SECONDARY_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE, projectionOf } from '#shared/adapters/dynamodb/table-definition';

/**
 * The single table, shaped by table-definition.ts (the local runtime builds the same one).
 * TableV2 because it takes streams, TTL, PITR and GSIs as plain props, and replicas can be
 * added later without replacing the table.
 */
export class Data extends Construct {
  public readonly table: ITableV2;

  public constructor(scope: Construct, id: string) {
    super(scope, id);
    const string = (name: string) => ({ name, type: AttributeType.STRING });

    this.table = new TableV2(this, 'Table', {
      partitionKey: string(TABLE_KEYS.partitionKey),
      sortKey: string(TABLE_KEYS.sortKey),
      globalSecondaryIndexes: GLOBAL_SECONDARY_INDEXES.map((index) => ({
        indexName: index.indexName,
        partitionKey: string(index.partitionKey),
        sortKey: string(index.sortKey),
        // What each index copies is declared with it (table-definition.ts).
        projectionType: ProjectionType[projectionOf(index).ProjectionType],
        nonKeyAttributes: projectionOf(index).NonKeyAttributes,
      })),
      billing: Billing.onDemand(),
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Change capture for event fan-out (webhooks, streaming) reads both images.
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Tenant data outlives the stack: a stack deletion or a mistaken replacement must not drop it.
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
