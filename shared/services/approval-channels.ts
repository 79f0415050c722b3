import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import type { Integration, SlackSettings } from '#shared/domain/integration';

// Apart from slack-approvals.ts: the stream consumer asks this (a query) and must not bundle the
// Slack client and the credentials cipher that posting needs.

/** The slack integrations of a tenant that post approvals (active, with an `approvals_channel`). */
export async function approvalChannels(tenantId: string): Promise<Integration[]> {
  return (await integrationRepository.listAll(tenantId)).filter((integration) => integration.kind === 'slack' && integration.status === 'active' && Boolean((integration.settings as SlackSettings).approvals_channel));
}
