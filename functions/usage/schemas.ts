import * as z from '#shared/zod';

/** GET /usage: `month` as `YYYY-MM` (default the current UTC month), `format` json or csv. */
export const usageQuery = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    month: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM'))),
    format: z.optional(z.enum(['json', 'csv'])),
  }),
);
