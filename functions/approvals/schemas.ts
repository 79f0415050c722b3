import * as z from '#shared/zod';
import { storableJson } from '#shared/http/common-schemas';

const id = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));

export const approvalParams = /* @__PURE__ */ z.schema(() => z.object({ approval_id: id }));

export const listApprovalsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    status: z._default(z.enum(['pending', 'approved', 'denied']), 'pending'),
    agent: z.optional(id),
    task_id: z.optional(id),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const resolveApprovalBody = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({
      decision: z.enum(['approved', 'denied']),
      comment: z.optional(z.string().check(z.maxLength(2000))),
      // Stored in the approval item: bounded so it always fits DynamoDB's item limit.
      modified_action: z.optional(
        storableJson(
          z
            .catchall(z.object({ type: id }), z.unknown())
            .check(z.refine((action) => Buffer.byteLength(JSON.stringify(action), 'utf8') <= 64 * 1024, 'must be at most 65536 bytes as JSON')),
        ),
      ),
    })
    .check(z.refine((body) => !(body.decision === 'denied' && body.modified_action), { message: 'modified_action only goes with decision approved', path: ['modified_action'] })),
);

/** The schedule's event: exactly the payload the approval gate scheduled. */
export const expiryEvent = /* @__PURE__ */ z.schema(() => z.object({ tenant_id: z.string().check(z.minLength(1)), approval_id: z.string().check(z.minLength(1)) }));
