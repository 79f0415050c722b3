import * as z from '#shared/zod';

/** Path identifiers: anything that cannot be an id is simply not found, never a server error. */
export const taskIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const artifactIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const agentIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
