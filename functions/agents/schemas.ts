import * as z from '#shared/zod';
import { agentIdParam } from '#shared/http/common-schemas';

export const deployAgentBody = /* @__PURE__ */ z.schema(() => z.strictObject({ agent_slug: z.string().check(z.minLength(1), z.maxLength(64)), name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))) }));
export const agentParams = /* @__PURE__ */ z.schema(() => z.object({ agent_id: agentIdParam }));
const binding = () => z.nullable(z.string().check(z.minLength(1), z.maxLength(64)));

export const agentConfigBody = /* @__PURE__ */ z.schema(() =>
  z
    // Hours, fractions allowed (0.25 = 15 minutes); at most 7 days, because an approval-gated
    // artifact expires after 7 days if nobody acts on it.
    .partial(
      z.strictObject({
        approval_ttl_hours: z.number().check(z.minimum(0.001), z.maximum(168)),
        // One integration per kind that the agent's tool calls use; null unbinds it.
        integrations: z.partial(z.strictObject({ github: binding(), email: binding(), slack: binding() })),
      }),
    )
    .check(z.refine((config) => Object.keys(config).length > 0, 'name at least one setting, e.g. approval_ttl_hours')),
);
