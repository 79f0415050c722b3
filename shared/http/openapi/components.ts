import * as r from '#shared/http/openapi/response-schemas';
import type * as z from '#shared/zod';

/**
 * The named response schemas of the document (`components.schemas`), built on first use. Lists are
 * named `<Record>List` and reference their record, so a typed client gets one type per record.
 */
export function responseComponents(): Record<string, z.ZodType> {
  return {
    Problem: r.problemSchema,
    Health: r.healthSchema,
    ProblemType: r.problemTypeSchema,
    ProblemTypeList: r.listOf('data', r.problemTypeSchema),
    OpenApiDocument: r.openApiDocumentSchema,
    Agent: r.agentSchema,
    AgentList: r.listOf('agents', r.agentSchema),
    CatalogAgent: r.catalogAgentSchema,
    AgentCatalog: r.listOf('data', r.catalogAgentSchema),
    AgentManifest: r.manifestSchema,
    Task: r.taskSchema,
    TaskList: r.listOf('tasks', r.taskSchema),
    TaskCancellation: r.taskCancellationSchema,
    TaskArtifacts: r.taskArtifactsSchema,
    Session: r.sessionSchema,
    SessionList: r.listOf('sessions', r.sessionSchema),
    SessionMessage: r.sessionMessageSchema,
    SessionMessageList: r.listOf('messages', r.sessionMessageSchema),
    Artifact: r.artifactSchema,
    ArtifactList: r.listOf('artifacts', r.artifactSchema),
    Approval: r.approvalSchema,
    ApprovalList: r.listOf('approvals', r.approvalSchema),
    ApprovalResolution: r.approvalResolutionSchema,
    Webhook: r.webhookSchema,
    WebhookList: r.listOf('webhooks', r.webhookSchema),
    Delivery: r.deliverySchema,
    DeliveryList: r.listOf('deliveries', r.deliverySchema),
    DeliveryDetail: r.deliveryDetailSchema,
    DeliveryRecovery: r.recoverySchema,
    Project: r.projectSchema,
    ProjectList: r.listOf('data', r.projectSchema),
    Scan: r.scanSchema,
    ScanSummary: r.scanSummarySchema,
    ScanList: r.listOf('data', r.scanSummarySchema),
    ScanCancellation: r.scanCancellationSchema,
    Finding: r.findingSchema,
    ScanFindings: r.scanFindingsSchema,
    RuleHistory: r.ruleHistorySchema,
    RetentionSettings: r.retentionSchema,
    Me: r.meSchema,
    ApiKey: r.apiKeySchema,
    NewApiKey: r.newApiKeySchema,
    ApiKeyList: r.listOf('api_keys', r.apiKeySchema),
    Member: r.memberSchema,
    MemberList: r.listOf('members', r.memberSchema),
    Usage: r.usageSchema,
    Event: r.eventSchema,
    EventList: r.listOf('events', r.eventSchema),
  };
}
