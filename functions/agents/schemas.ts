import * as z from '#shared/zod';
import { agentIdParam } from '#shared/http/common-schemas';

export const deployAgentBody = z.object({ agent_slug: z.string().min(1).max(64), name: z.string().min(1).max(200).optional() }).strict();
export const agentParams = z.object({ agent_id: agentIdParam });
export const agentConfigBody = z
  // Hours, fractions allowed (0.25 = 15 minutes); at most 7 days, because an approval-gated
  // artifact expires after 7 days if nobody acts on it.
  .object({ approval_ttl_hours: z.number().min(0.001).max(168) })
  .partial()
  .strict()
  .refine((config) => Object.keys(config).length > 0, 'name at least one setting, e.g. approval_ttl_hours');
