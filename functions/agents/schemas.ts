import { z } from 'zod';
import { agentIdParam } from '#shared/http/common-schemas';

export const deployAgentBody = z.object({ agent_slug: z.string().min(1).max(64), name: z.string().min(1).max(200).optional() }).strict();
export const agentParams = z.object({ agent_id: agentIdParam });
export const agentConfigBody = z
  .object({ approval_ttl_hours: z.number().int().min(1).max(24 * 30) })
  .partial()
  .strict()
  .refine((config) => Object.keys(config).length > 0, 'name at least one setting, e.g. approval_ttl_hours');
