import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { clientConfig, type PreflightClientOptions } from '#shared/adapters/preflight/client-options';
import type { SesAccount } from '#shared/preflight/readings';

/** SES v2 GetAccount (ses:GetAccount): sandbox, sending state and quota in the region. */
export async function readSesAccount(options: PreflightClientOptions): Promise<SesAccount> {
  const client = new SESv2Client(clientConfig(options));
  try {
    const answer = await client.send(new GetAccountCommand({}));
    return {
      ProductionAccessEnabled: answer.ProductionAccessEnabled,
      SendingEnabled: answer.SendingEnabled,
      EnforcementStatus: answer.EnforcementStatus,
      SendQuota: answer.SendQuota,
      Details: { ReviewDetails: answer.Details?.ReviewDetails },
    };
  } finally {
    client.destroy();
  }
}
