import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { clientConfig, type PreflightClientOptions } from '#shared/adapters/preflight/client-options';
import type { LambdaAccountSettings } from '#shared/preflight/readings';

/** Lambda GetAccountSettings (lambda:GetAccountSettings): the account's concurrency quota in the region. */
export async function readLambdaAccountSettings(options: PreflightClientOptions): Promise<LambdaAccountSettings> {
  const client = new LambdaClient(clientConfig(options));
  try {
    const { AccountLimit } = await client.send(new GetAccountSettingsCommand({}));
    return { AccountLimit: { ConcurrentExecutions: AccountLimit?.ConcurrentExecutions, UnreservedConcurrentExecutions: AccountLimit?.UnreservedConcurrentExecutions } };
  } finally {
    client.destroy();
  }
}
