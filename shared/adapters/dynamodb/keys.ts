import { agentEntity } from '#shared/adapters/dynamodb/entities/agent';
import { apiKeyEntity } from '#shared/adapters/dynamodb/entities/api-key';
import { keyBindingJobEntity } from '#shared/adapters/dynamodb/entities/key-binding-job';
import { approvalEntity } from '#shared/adapters/dynamodb/entities/approval';
import { artifactEntity } from '#shared/adapters/dynamodb/entities/artifact';
import { eventDayEntity, eventEntity } from '#shared/adapters/dynamodb/entities/event';
import { findingEntity } from '#shared/adapters/dynamodb/entities/finding';
import { idempotencyEntity } from '#shared/adapters/dynamodb/entities/idempotency';
import { occurrenceEntity } from '#shared/adapters/dynamodb/entities/occurrence';
import { projectEntity } from '#shared/adapters/dynamodb/entities/project';
import { rateLimitBucketEntity } from '#shared/adapters/dynamodb/entities/rate-limit-bucket';
import { ruleHistoryEntity } from '#shared/adapters/dynamodb/entities/rule-history';
import { scanEntity } from '#shared/adapters/dynamodb/entities/scan';
import { claimQueueEntryEntity, taskEntity, taskInputEntity } from '#shared/adapters/dynamodb/entities/task';
import { taskSlotsEntity } from '#shared/adapters/dynamodb/entities/task-slots';
import { invitationEntity } from '#shared/adapters/dynamodb/entities/invitation';
import { pageCursorSecretEntity } from '#shared/adapters/dynamodb/entities/page-cursor-secret';
import { fanOutBudgetEntity, tenantCountEntity } from '#shared/adapters/dynamodb/entities/counter';
import { tenantLimitsEntity } from '#shared/adapters/dynamodb/entities/tenant-limits';
import { tenantSettingsEntity } from '#shared/adapters/dynamodb/entities/tenant-settings';
import { usageEntity } from '#shared/adapters/dynamodb/entities/usage';
import { emailClaimEntity } from '#shared/adapters/dynamodb/entities/email-claim';
import { identityEntity } from '#shared/adapters/dynamodb/entities/identity';
import { memberEntity } from '#shared/adapters/dynamodb/entities/member';
import { sessionEntity, sessionMessageEntity, taskOriginEntity } from '#shared/adapters/dynamodb/entities/session';
import { inboundAddressEntity, mailAttachmentEntity, mailMessageClaimEntity, triggerEntity, triggerRunEntity } from '#shared/adapters/dynamodb/entities/trigger';
import { approvalChatMessageEntity, chatReplyEntity } from '#shared/adapters/dynamodb/entities/chat';
import { integrationEntity, integrationOwnerEntity, toolCallEntity } from '#shared/adapters/dynamodb/entities/integration';
import { deliveryBodyEntity, deliveryEntity, webhookEntity } from '#shared/adapters/dynamodb/entities/webhook';

export { ACTIVE_TASK_SHARDS, shardOf, type Key } from '#shared/adapters/dynamodb/entities/entity';
export { EVENT_SHARDS } from '#shared/adapters/dynamodb/entities/event';
export { USAGE_SHARDS } from '#shared/adapters/dynamodb/entities/usage';
export { RATE_LIMIT_PARTITION_PREFIX } from '#shared/adapters/dynamodb/entities/rate-limit-bucket';

/**
 * Key builders for every record type (but the local scheduler's, which its adapter keeps as
 * `scheduleKeys`), gathered from the entity declarations in ./entities. Every tenant-owned key
 * starts with the tenant, so no query or read can reach another tenant's items by construction.
 */
export const keys = {
  ...apiKeyEntity.keys,
  ...keyBindingJobEntity.keys,
  ...agentEntity.keys,
  ...tenantSettingsEntity.keys,
  ...taskEntity.keys,
  ...taskEntity.sharedPartitions,
  ...taskInputEntity.keys,
  ...claimQueueEntryEntity.keys,
  ...artifactEntity.keys,
  ...eventEntity.keys,
  ...eventDayEntity.keys,
  ...approvalEntity.keys,
  ...approvalEntity.sharedPartitions,
  ...webhookEntity.keys,
  ...deliveryEntity.keys,
  ...deliveryBodyEntity.keys,
  ...projectEntity.keys,
  ...scanEntity.keys,
  ...scanEntity.sharedPartitions,
  ...findingEntity.keys,
  ...occurrenceEntity.keys,
  ...ruleHistoryEntity.keys,
  ...idempotencyEntity.keys,
  ...rateLimitBucketEntity.keys,
  ...tenantLimitsEntity.keys,
  ...pageCursorSecretEntity.keys,
  ...invitationEntity.keys,
  ...taskSlotsEntity.keys,
  ...tenantCountEntity.keys,
  ...fanOutBudgetEntity.keys,
  ...usageEntity.keys,
  ...memberEntity.keys,
  ...emailClaimEntity.keys,
  ...identityEntity.keys,
  ...sessionEntity.keys,
  ...sessionMessageEntity.keys,
  ...taskOriginEntity.keys,
  ...triggerEntity.keys,
  ...triggerRunEntity.keys,
  ...integrationEntity.keys,
  ...integrationOwnerEntity.keys,
  ...toolCallEntity.keys,
  ...approvalChatMessageEntity.keys,
  ...chatReplyEntity.keys,
  ...inboundAddressEntity.keys,
  ...mailAttachmentEntity.keys,
  ...mailMessageClaimEntity.keys,
};
