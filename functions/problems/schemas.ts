import * as z from '#shared/zod';

export const problemTypeParams = /* @__PURE__ */ z.schema(() => z.object({ code: z.string().check(z.minLength(1), z.maxLength(64)) }));
