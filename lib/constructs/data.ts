import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableEncryptionV2, TableV2, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct, type IConstruct } from 'constructs';
import { GLOBAL_SECONDARY_INDEXES, TABLE_KEYS, TTL_ATTRIBUTE, projectionOf } from '#shared/adapters/dynamodb/table-definition';
import { acknowledgeIndexGrants } from '#lib/nag';

export interface DataProps {
  /** The customer-managed key of the table and its stream (`Keys.data`). */
  encryptionKey: IKey;
}

/**
 * The single table, shaped by table-definition.ts (the local runtime builds the same one).
 * TableV2 because it takes streams, TTL, PITR and GSIs as plain props, and replicas can be
 * added later without replacing the table.
 */
export class Data extends Construct {
  public readonly table: ITableV2;

  public constructor(scope: Construct, id: string, props: DataProps) {
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
      // The stream is encrypted with the table's key: CDK's table and stream grants add the KMS actions.
      encryption: singleRegionCustomerManagedKey(props.encryptionKey),
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Change capture for event fan-out (webhooks, streaming) reads both images.
      dynamoStream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Tenant data outlives the stack: a stack deletion or a mistaken replacement must not drop it.
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeIndexGrants(this.table);
  }
}

/**
 * `TableEncryptionV2.customerManagedKey` for a table whose only replica is the stack's region.
 * CDK refuses to render it in a region-agnostic stack (tests and offline `cdk synth` are), because
 * it cannot tell the stack's region from other replicas' without a concrete region. With one
 * replica there is nothing to tell apart: it gets the key, as CDK would render it knowing the region.
 * A replica in another region needs its own key ARN (`replicaKeyArns`), and is refused here.
 */
function singleRegionCustomerManagedKey(key: IKey): TableEncryptionV2 {
  const encryption = TableEncryptionV2.customerManagedKey(key);
  encryption._renderReplicaSseSpecification = (scope: IConstruct, region: string) => {
    if (region !== Stack.of(scope).region) throw new Error(`Data: replica in ${region} needs its own KMS key (replicaKeyArns).`);
    return { kmsMasterKeyId: key.keyArn };
  };
  return encryption;
}
