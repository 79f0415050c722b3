import * as z from '#shared/zod';
import { DETECTORS, SEVERITIES } from '#shared/scans/model';
import { DISMISS_REASONS } from '#shared/scans/finding';

const detectors = z.array(z.enum(DETECTORS)).min(1).max(DETECTORS.length);
const crawl = z.object({ max_pages: z.number().int().min(1).max(50), timeout_seconds: z.number().int().min(1).max(30), max_page_bytes: z.number().int().min(10_000).max(5 * 1024 * 1024) }).partial().strict();

export const projectParams = z.object({ project_id: z.string().min(1).max(64) });
export const scanParams = z.object({ scan_id: z.string().min(1).max(64) });
export const findingParams = z.object({ finding_id: z.string().min(1).max(64) });
export const historyParams = z.object({ project_id: z.string().min(1).max(64), rule_id: z.string().min(1).max(200) });

export const createProjectBody = z.object({ name: z.string().min(1).max(200), target: z.string().min(1).max(2048), default_detectors: detectors.optional(), crawl: crawl.optional() }).strict();
export const updateProjectBody = z
  .object({ name: z.string().min(1).max(200), target: z.string().min(1).max(2048), default_detectors: detectors, crawl })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'name at least one of name, target, default_detectors, crawl');

export const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), cursor: z.string().min(1).max(2048).optional() });

export const createScanBody = z
  .object({
    detectors: detectors.optional(),
    environment: z.string().min(1).max(64).optional(),
    target_override: z.string().min(1).max(2048).optional(),
    detector_options: z
      .object({
        accessibility: z.object({ wcag_level: z.enum(['A', 'AA', 'AAA']) }).partial().strict(),
        security: z.object({}).strict(),
        ai_readiness: z.object({}).strict(),
      })
      .partial()
      .strict()
      .optional(),
    metadata: z.record(z.string().max(64), z.union([z.string().max(1024), z.number(), z.boolean()])).refine((value) => Object.keys(value).length <= 50, 'at most 50 keys').optional(),
  })
  .strict()
  .default({});

export const listScansQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2048).optional(),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']).optional(),
});

export const listFindingsQuery = z.object({
  detector: z.enum(DETECTORS).optional(),
  severity: z
    .string()
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(z.enum(SEVERITIES)).min(1))
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(2048).optional(),
});

export const updateFindingBody = z.object({ status: z.enum(['dismissed', 'open']), dismissed_reason: z.enum(DISMISS_REASONS).optional(), comment: z.string().max(2000).optional() }).strict();

export const exportQuery = z.object({ format: z.enum(['json', 'sarif', 'csv', 'pdf']) });
