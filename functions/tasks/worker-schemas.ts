import * as z from '#shared/zod';
import { DEFAULT_LEASE_SECONDS, MAX_CLAIM_WAIT_SECONDS, MAX_LEASE_SECONDS, MIN_LEASE_SECONDS } from '#shared/domain/task-lease';

/** The bodies of the worker protocol (docs/workers.md). Built per use: see schemas.ts. */

/** The artifact data a worker may send in one call (the task's input has the same cap). */
export const MAX_WORKER_ARTIFACT_BYTES = 256 * 1024;

const leaseId = () => z.string().check(z.minLength(1), z.maxLength(64));
const leaseSeconds = () => z.number().check(z.int(), z.minimum(MIN_LEASE_SECONDS), z.maximum(MAX_LEASE_SECONDS));

export const claimBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    wait_seconds: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_CLAIM_WAIT_SECONDS)), MAX_CLAIM_WAIT_SECONDS),
    lease_seconds: z._default(leaseSeconds(), DEFAULT_LEASE_SECONDS),
  }),
);

export const heartbeatBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    lease_id: leaseId(),
    lease_seconds: z.optional(leaseSeconds()),
    progress: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
    message: z.optional(z.string().check(z.maxLength(500))),
  }),
);

export const leaseBody = /* @__PURE__ */ z.schema(() => z.strictObject({ lease_id: leaseId() }));

export const workerArtifactBody = /* @__PURE__ */ z.schema(() =>
  z
    .strictObject({ lease_id: leaseId(), type: z.string().check(z.minLength(1), z.maxLength(100)), data: z.record(z.string(), z.unknown()) })
    .check(z.refine((body) => Buffer.byteLength(JSON.stringify(body.data), 'utf8') <= MAX_WORKER_ARTIFACT_BYTES, { path: ['data'], message: `must be at most ${MAX_WORKER_ARTIFACT_BYTES} bytes as JSON` })),
);

export const workerApprovalBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    lease_id: leaseId(),
    title: z.string().check(z.minLength(1), z.maxLength(200)),
    description: z.string().check(z.maxLength(2000)),
    action: z
      .catchall(z.object({ type: z.string().check(z.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'must look like <domain>.<action>'), z.maxLength(100)) }), z.unknown())
      .check(z.refine((action) => Buffer.byteLength(JSON.stringify(action), 'utf8') <= 100 * 1024, 'must be at most 102400 bytes as JSON')),
  }),
);

export const workerToolCallBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({ lease_id: leaseId(), tool: z.string().check(z.minLength(1), z.maxLength(100)), args: z.record(z.string(), z.unknown()) }),
);

export const workerFailBody = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    lease_id: leaseId(),
    error: z.strictObject({ code: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a lowercase code like invoice_unreadable')), message: z.string().check(z.minLength(1), z.maxLength(1000)) }),
  }),
);
