import * as z from '#shared/zod';
import { UNSTORABLE_NUMBER_MESSAGE, unstorableNumberPaths } from '#shared/domain/storable-number';

/** Path identifiers: anything that cannot be an id is simply not found, never a server error. */
export const taskIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const artifactIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const sessionIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));
export const agentIdParam = /* @__PURE__ */ z.schema(() => z.string().check(z.minLength(1), z.maxLength(64)));

/**
 * A body field of free-form JSON that is stored: valid JSON may still hold a number the table
 * cannot keep as sent (shared/domain/storable-number.ts), which would fail the write as a 500.
 * Each such number is a validation error at its own path. Task `input` is the exception: it is
 * accepted and the task fails with `malformed_input` (shared/services/task-creation.ts).
 */
export function storableJson<T extends z.ZodType>(schema: T): T {
  return schema.check((context) => {
    for (const path of unstorableNumberPaths(context.value)) context.issues.push({ code: 'custom', message: UNSTORABLE_NUMBER_MESSAGE, input: context.value, path });
  });
}
