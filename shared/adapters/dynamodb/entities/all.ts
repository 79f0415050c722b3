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
import { scheduleEntity } from '#shared/adapters/dynamodb/entities/schedule';
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
import { approvalChatMessageEntity, chatReplyEntity } from '#shared/adapters/dynamodb/entities/chat';
import { integrationEntity, integrationOwnerEntity, toolCallEntity } from '#shared/adapters/dynamodb/entities/integration';
import { inboundAddressEntity, mailAttachmentEntity, mailMessageClaimEntity, triggerEntity, triggerRunEntity } from '#shared/adapters/dynamodb/entities/trigger';
import { deliveryBodyEntity, deliveryEntity, webhookEntity } from '#shared/adapters/dynamodb/entities/webhook';

/**
 * Every record type of the single table. The order is the order of an index's copied attributes
 * (table-definition.ts): the deployed gsi3 lists the task's, then the scan's, the approval's and
 * the schedule's, and DynamoDB cannot change a projection in place.
 */
export const ENTITIES = [
  apiKeyEntity,
  agentEntity,
  tenantSettingsEntity,
  tenantLimitsEntity,
  rateLimitBucketEntity,
  taskSlotsEntity,
  taskEntity,
  taskInputEntity,
  claimQueueEntryEntity,
  artifactEntity,
  eventEntity,
  eventDayEntity,
  idempotencyEntity,
  projectEntity,
  scanEntity,
  findingEntity,
  occurrenceEntity,
  ruleHistoryEntity,
  approvalEntity,
  webhookEntity,
  deliveryEntity,
  deliveryBodyEntity,
  scheduleEntity,
  usageEntity,
  memberEntity,
  emailClaimEntity,
  identityEntity,
  sessionEntity,
  sessionMessageEntity,
  taskOriginEntity,
  triggerEntity,
  triggerRunEntity,
  integrationEntity,
  integrationOwnerEntity,
  toolCallEntity,
  approvalChatMessageEntity,
  chatReplyEntity,
  inboundAddressEntity,
  mailAttachmentEntity,
  mailMessageClaimEntity,
  keyBindingJobEntity,
  pageCursorSecretEntity,
  invitationEntity,
  tenantCountEntity,
  fanOutBudgetEntity,
] as const;
