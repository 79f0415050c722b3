import * as z from '#shared/zod';
import { DETECTORS, SEVERITIES } from '#shared/scans/model';
import { DISMISS_REASONS } from '#shared/scans/finding';
import { storableJson } from '#shared/http/common-schemas';

const id = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
const name = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(200)));
const target = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(2048)));
const cursor = /* @__PURE__ */ z.schema(() => z.optional(z.string().check(z.minLength(1), z.maxLength(2048))));
const limit = (max: number, fallback: number) => z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(max)), fallback);
const wholeNumber = (min: number, max: number) => z.number().check(z.int(), z.minimum(min), z.maximum(max));
const detectors = /* @__PURE__ */ z.schema(() => z.array(z.enum(DETECTORS)).check(z.minLength(1), z.maxLength(DETECTORS.length)));
// robots.txt rule syntax (shared/scans/crawler/crawl-scope.ts); `#` would start a comment there.
const pathPatterns = () => z.array(z.string().check(z.maxLength(200), z.regex(/^\/[^\s#]*$/, 'must be a path pattern: starting with /, without spaces or #'))).check(z.maxLength(20));
const crawl = /* @__PURE__ */ z.schema(() =>
  z.partial(
    z.strictObject({
      max_pages: wholeNumber(1, 50),
      timeout_seconds: wholeNumber(1, 30),
      max_page_bytes: wholeNumber(10_000, 5 * 1024 * 1024),
      respect_robots_txt: z.boolean(),
      include: pathPatterns(),
      exclude: pathPatterns(),
    }),
  ),
);

export const projectParams = /* @__PURE__ */ z.schema(() => z.object({ project_id: id }));
export const scanParams = /* @__PURE__ */ z.schema(() => z.object({ scan_id: id }));
export const findingParams = /* @__PURE__ */ z.schema(() => z.object({ finding_id: id }));
export const historyParams = /* @__PURE__ */ z.schema(() => z.object({ project_id: id, rule_id: z.string().check(z.minLength(1), z.maxLength(200)) }));

export const createProjectBody = /* @__PURE__ */ z.schema(() => z.strictObject({ name, target, default_detectors: z.optional(detectors), crawl: z.optional(crawl) }));
export const updateProjectBody = /* @__PURE__ */ z.schema(() =>
  z
    .partial(z.strictObject({ name, target, default_detectors: detectors, crawl }))
    .check(z.refine((body) => Object.keys(body).length > 0, 'name at least one of name, target, default_detectors, crawl')),
);

export const listQuery = /* @__PURE__ */ z.schema(() => z.object({ limit: limit(100, 20), cursor }));

export const createScanBody = /* @__PURE__ */ z.schema(() =>
  z._default(
    z.strictObject({
      detectors: z.optional(detectors),
      environment: z.optional(id),
      target_override: z.optional(target),
      detector_options: z.optional(
        z.partial(
          z.strictObject({
            accessibility: z.partial(z.strictObject({ wcag_level: z.enum(['A', 'AA', 'AAA']) })),
            security: z.strictObject({}),
            ai_readiness: z.strictObject({}),
          }),
        ),
      ),
      metadata: z.optional(
        storableJson(
          z
            .record(z.string().check(z.maxLength(64)), z.union([z.string().check(z.maxLength(1024)), z.number(), z.boolean()]))
            .check(z.refine((value) => Object.keys(value).length <= 50, 'at most 50 keys')),
        ),
      ),
    }),
    {},
  ),
);

export const listScansQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    limit: limit(100, 20),
    cursor,
    status: z.optional(z.enum(['pending', 'running', 'completed', 'failed', 'cancelled'])),
  }),
);

export const listFindingsQuery = /* @__PURE__ */ z.schema(() =>
  z.object({
    detector: z.optional(z.enum(DETECTORS)),
    severity: z.optional(
      z.pipe(
        z.pipe(
          z.string(),
          z.transform((value: string) => value.split(',').map((part) => part.trim()).filter(Boolean)),
        ),
        z.array(z.enum(SEVERITIES)).check(z.minLength(1)),
      ),
    ),
    limit: limit(200, 50),
    cursor,
  }),
);

export const updateFindingBody = /* @__PURE__ */ z.schema(() => z.strictObject({ status: z.enum(['dismissed', 'open']), dismissed_reason: z.optional(z.enum(DISMISS_REASONS)), comment: z.optional(z.string().check(z.maxLength(2000))) }));

export const exportQuery = /* @__PURE__ */ z.schema(() => z.object({ format: z.enum(['json', 'sarif', 'csv', 'pdf']) }));
