import { App, Tags } from 'aws-cdk-lib';
import { GatehouseStack } from '#lib/stack';
import { addNagChecks } from '#lib/nag';

/**
 * Resource types CloudFormation refuses `Tags` on in some regions, though CDK's L1 offers them:
 * `AWS::CloudWatch::Dashboard` has no Tags property in us-east-1 (cfn-lint E3002).
 */
const UNTAGGABLE_TYPES = ['AWS::CloudWatch::Dashboard'];

const app = new App();
const stack = new GatehouseStack(app, 'Gatehouse', {
  description: 'Gatehouse: agent tasks behind an authorized REST API, and its dashboard',
  // The CLI always gives a region (the profile's, or us-east-1) and, with credentials, the account.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Tags.of(stack).add('service', 'gatehouse', { excludeResourceTypes: UNTAGGABLE_TYPES });
// cdk-nag AwsSolutions: `cdk synth` reports every unacknowledged finding (acknowledgements: lib/nag.ts).
addNagChecks(app);
