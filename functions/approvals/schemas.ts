import * as z from '#shared/zod';

export const approvalParams = z.object({ approval_id: z.string().min(1).max(64) });

export const listApprovalsQuery = z.object({
  status: z.enum(['pending', 'approved', 'denied']).default('pending'),
  agent: z.string().min(1).max(64).optional(),
  task_id: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});

export const resolveApprovalBody = z
  .object({
    decision: z.enum(['approved', 'denied']),
    comment: z.string().max(2000).optional(),
    // Stored in the approval item: bounded so it always fits DynamoDB's item limit.
    modified_action: z
      .object({ type: z.string().min(1).max(64) })
      .catchall(z.unknown())
      .refine((action) => Buffer.byteLength(JSON.stringify(action), 'utf8') <= 64 * 1024, 'must be at most 65536 bytes as JSON')
      .optional(),
  })
  .strict()
  .refine((body) => !(body.decision === 'denied' && body.modified_action), { message: 'modified_action only goes with decision approved', path: ['modified_action'] });

/** The schedule's event: exactly the payload the approval gate scheduled. */
export const expiryEvent = z.object({ tenant_id: z.string().min(1), approval_id: z.string().min(1) });
