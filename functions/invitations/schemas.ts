import * as z from '#shared/zod';

/** The tenant whose invitation is answered. */
export const invitationParams = /* @__PURE__ */ z.schema(() => z.object({ tenant_id: z.string().check(z.minLength(1), z.maxLength(64)) }));
