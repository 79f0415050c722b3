import { renderWebhook } from '#shared/domain/webhook';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { rotateWebhookSecret } from '#shared/services/webhook-secrets';
import { rotateSecretBody, webhookParams } from '#functions/webhooks/schemas';

/** POST /webhooks/{id}/rotate-secret: both secrets sign until `previous_secret_expires_at`. */
export const handler = routeHandler({ params: webhookParams, body: rotateSecretBody }, async ({ tenantId, params, body }) =>
  jsonResponse(200, renderWebhook(await rotateWebhookSecret(tenantId, params.webhook_id, body))),
);
