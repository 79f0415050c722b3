import { CloudFrontClient, ListDistributionsCommand } from '@aws-sdk/client-cloudfront';
import { clientConfig, type PreflightClientOptions } from '#shared/adapters/preflight/client-options';
import type { CloudFrontDistributions } from '#shared/preflight/readings';

/** CloudFront is global: its API is signed for us-east-1 whatever region the stack goes to. */
const CLOUDFRONT_REGION = 'us-east-1';

/**
 * CloudFront ListDistributions with one item (cloudfront:ListDistributions): whether the account
 * has any distribution. One page is the whole answer needed, so no page is left unread.
 */
export async function readCloudFrontDistributions(options: PreflightClientOptions): Promise<CloudFrontDistributions> {
  const client = new CloudFrontClient(clientConfig({ ...options, region: CLOUDFRONT_REGION }));
  try {
    const { DistributionList } = await client.send(new ListDistributionsCommand({ MaxItems: 1 }));
    return { DistributionList: { Quantity: DistributionList?.Quantity, Items: DistributionList?.Items?.map(({ Id, DomainName }) => ({ Id, DomainName })) } };
  } finally {
    client.destroy();
  }
}
