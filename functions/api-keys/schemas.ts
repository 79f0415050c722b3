import * as z from '#shared/zod';
import { ROLES } from '#shared/domain/roles';

/** A label people recognise the key by: printable, one line. */
const name = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[^\p{Cc}]+$/u, 'must be one line of printable characters')));

export const createApiKeyBody = /* @__PURE__ */ z.schema(() => z.strictObject({ name, role: z.optional(z.enum(ROLES)) }));

export const listApiKeysQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const apiKeyParams = /* @__PURE__ */ z.schema(() => z.object({ key_id: z.string().check(z.minLength(1), z.maxLength(64)) }));
