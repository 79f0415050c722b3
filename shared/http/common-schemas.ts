import * as z from '#shared/zod';

/** Path identifiers: anything that cannot be an id is simply not found, never a server error. */
export const taskIdParam = z.string().check(z.minLength(1), z.maxLength(64));
export const artifactIdParam = z.string().check(z.minLength(1), z.maxLength(64));
export const agentIdParam = z.string().check(z.minLength(1), z.maxLength(64));
