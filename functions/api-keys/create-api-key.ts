import { renderApiKey } from '#shared/domain/api-key';
import { jsonResponse } from '#shared/http/response';
import { routeHandler } from '#shared/http/route-handler';
import { issueApiKey } from '#shared/services/api-keys';
import { createApiKeyBody } from '#functions/api-keys/schemas';

/**
 * POST /api-keys {name, role?} → 201 with `key`, shown in this answer only: an idempotent replay
 * answers without it, because the key is never stored (not even for replays).
 */
export const handler = routeHandler(
  { body: createApiKeyBody },
  async ({ caller, body }) => {
    const { key, record } = await issueApiKey(caller, body);
    return jsonResponse(201, { ...renderApiKey(record), key }, { Location: `/v1/api-keys/${record.key_id}` });
  },
  { secretFields: ['key'] },
);
