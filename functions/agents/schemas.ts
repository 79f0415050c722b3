import * as z from '#shared/zod';
import { agentIdParam } from '#shared/http/common-schemas';
import { MAX_MANIFEST_BYTES } from '#shared/domain/custom-agent';

const dottedName = () => z.string().check(z.maxLength(100), z.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'must look like <domain>.<action>'));

/** A custom agent's manifest; what a schema cannot see (duplicates, schemas that do not compile, unknown tools) is checked by the service. */
const customManifest = () =>
  z
    .strictObject({
      description: z.optional(z.string().check(z.maxLength(2000))),
      task_types: z
        .array(
          z.strictObject({
            task_type: dottedName(),
            description: z.string().check(z.minLength(1), z.maxLength(2000)),
            input_schema: z.record(z.string(), z.unknown()),
            artifact_types: z.array(dottedName()).check(z.minLength(1), z.maxLength(50)),
            tools: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(20))),
          }),
        )
        .check(z.minLength(1), z.maxLength(50)),
    })
    .check(z.refine((manifest) => Buffer.byteLength(JSON.stringify(manifest), 'utf8') <= MAX_MANIFEST_BYTES, `must be at most ${MAX_MANIFEST_BYTES} bytes as JSON`));

/** A built-in agent by its slug, or (with `manifest`) a custom agent of the tenant's own. */
export const deployAgentBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({ agent_slug: z.string().check(z.minLength(1), z.maxLength(64)), name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))), manifest: z.optional(customManifest()) }),
);
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
