import * as z from '#shared/zod';
import { MEMBER_ROLES } from '#shared/domain/roles';

/** An email address as people type it: one `@`, no spaces, at most 254 characters (RFC 5321). */
const email = /* @__PURE__ */ z.schema(() => z.string().check(z.maxLength(254), z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address')));

export const createMemberBody = /* @__PURE__ */ z.schema(() => z.strictObject({ email, role: z.enum(MEMBER_ROLES) }));

export const updateMemberBody = /* @__PURE__ */ z.schema(() => z.strictObject({ role: z.enum(MEMBER_ROLES) }));

export const listMembersQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);

export const memberParams = /* @__PURE__ */ z.schema(() => z.object({ user_id: z.string().check(z.minLength(1), z.maxLength(64)) }));
