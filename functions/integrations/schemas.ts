import * as z from '#shared/zod';
import { sessionIdParam } from '#shared/http/common-schemas';
import { CREDENTIAL_SCHEMAS, SETTINGS_SCHEMAS } from '#shared/domain/integration-schemas';
import { INTEGRATION_KINDS } from '#shared/domain/integration';

const name = () => z.string().check(z.minLength(1), z.maxLength(200));

export const createIntegrationBody = /* @__PURE__ */ z.schema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('github'), name: name(), credentials: CREDENTIAL_SCHEMAS.github, settings: z.optional(SETTINGS_SCHEMAS.github) }),
    z.strictObject({ kind: z.literal('slack'), name: name(), credentials: CREDENTIAL_SCHEMAS.slack, settings: z.optional(SETTINGS_SCHEMAS.slack) }),
    z.strictObject({ kind: z.literal('email'), name: name(), credentials: CREDENTIAL_SCHEMAS.email, settings: SETTINGS_SCHEMAS.email }),
  ]),
);

/** Credentials and settings are checked against the integration's kind by the service (it knows the kind). */
export const updateIntegrationBody = /* @__PURE__ */ z.schema(() =>
  z
    .partial(z.strictObject({ name: name(), credentials: z.record(z.string(), z.unknown()), settings: z.record(z.string(), z.unknown()) }))
    .check(z.refine((body) => Object.keys(body).length > 0, 'name at least one of name, credentials, settings')),
);

export const integrationParams = /* @__PURE__ */ z.schema(() => z.object({ integration_id: sessionIdParam }));

export const listIntegrationsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    kind: z.optional(z.enum(INTEGRATION_KINDS)),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);
