import * as z from '#shared/zod';
import { ROLES } from '#shared/domain/roles';

/** A label people recognise the key by: printable, one line. */
const name = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[^\p{Cc}]+$/u, 'must be one line of printable characters')));

/**
 * `agent` names the custom agent a key of role `agent` works for (its slug), and goes with that
 * role only: such a key can do nothing but its agent's worker protocol (docs/workers.md).
 */
export const createApiKeyBody = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({ name, role: z.optional(z.enum(ROLES)), agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))) })
    .check(
      z.refine((body) => body.role !== 'agent' || body.agent !== undefined, { path: ['agent'], message: 'is required with role agent: the slug of the custom agent the key works for' }),
      z.refine((body) => body.agent === undefined || body.role === 'agent', { path: ['agent'], message: 'goes with role agent only' }),
    ),
);

export const listApiKeysQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const apiKeyParams = /* @__PURE__ */ z.schema(() => z.object({ key_id: z.string().check(z.minLength(1), z.maxLength(64)) }));
