/**
 * The commercial regions where Amazon SES receives mail (where CloudFormation has
 * `AWS::SES::ReceiptRuleSet` and `AWS::SES::ReceiptRule`), read from AWS's CloudFormation
 * resource registry as cfn-lint 1.51 ships it. Inbound mail (mail triggers) can run only there.
 */
export const SES_RECEIVING_REGIONS: ReadonlySet<string> = new Set([
  'af-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ca-central-1',
  'eu-central-1',
  'eu-north-1',
  'eu-south-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'il-central-1',
  'me-south-1',
  'sa-east-1',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
]);

export function sesReceivesMailIn(region: string): boolean {
  return SES_RECEIVING_REGIONS.has(region);
}
