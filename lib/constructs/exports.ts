import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { acknowledgeExportObjects } from '#lib/nag';

/**
 * The bucket for scan exports too large for a Lambda response. Objects are only ever reached
 * through 5-minute presigned links, so they expire after a day; nothing in it is public.
 */
export class Exports extends Construct {
  public readonly bucket: Bucket;

  public constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(1) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeExportObjects(this.bucket);
  }
}
