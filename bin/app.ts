import { App, Tags } from 'aws-cdk-lib';
import { GatehouseStack } from '#lib/stack';
import { addNagChecks } from '#lib/nag';

const app = new App();
const stack = new GatehouseStack(app, 'Gatehouse', {
  description: 'Gatehouse: agent tasks behind an authorized REST API, and its dashboard',
  // Environment-agnostic unless the CLI knows the account (`cdk deploy` with credentials).
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Tags.of(stack).add('service', 'gatehouse');
// cdk-nag AwsSolutions: `cdk synth` reports every unacknowledged finding (acknowledgements: lib/nag.ts).
addNagChecks(app);
