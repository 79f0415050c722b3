import * as z from '#shared/zod';
import { InvalidRequestError } from '#shared/domain/errors';
import type { IntegrationKind } from '#shared/domain/integration';

// What each kind's credentials and settings look like: the create body's union, and PATCH's check
// of new credentials against the integration's kind.

const secret = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'));
const url = z.string().check(z.minLength(1), z.maxLength(2048));
const slackId = z.string().check(z.regex(/^[A-Z0-9][A-Z0-9_-]{1,40}$/, 'must be a Slack id such as C0123ABCD or U0123ABCD'));
const mailbox = z.string().check(z.minLength(3), z.maxLength(320), z.regex(/^[^\r\n]*@[^\r\n]*$/, 'must be one sender such as "Sales <sales@example.com>"'));

export const CREDENTIAL_SCHEMAS = {
  github: z.strictObject({ token: secret(255) }),
  slack: z.strictObject({ bot_token: secret(255), signing_secret: z.string().check(z.regex(/^[0-9a-f]{16,128}$/, 'must be the hex signing secret of the Slack app')) }),
  email: z.union([
    z.strictObject({
      host: z.string().check(z.minLength(1), z.maxLength(253), z.regex(/^[A-Za-z0-9.:[\]-]+$/, 'must be a host name or address')),
      port: z.number().check(z.int(), z.minimum(1), z.maximum(65535)),
      username: z.optional(z.string().check(z.minLength(1), z.maxLength(320))),
      password: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
      secure: z._default(z.boolean(), false),
    }),
    z.strictObject({ ses: z.literal(true) }),
  ]),
} as const;

export const SETTINGS_SCHEMAS = {
  github: z.strictObject({ api_url: z.optional(url) }),
  slack: z.strictObject({ api_url: z.optional(url), approvals_channel: z.optional(slackId), approvers: z.optional(z.array(slackId).check(z.maxLength(100))) }),
  email: z.strictObject({ from: z.optional(mailbox) }),
} as const;

/** Parses a part of a PATCH against the integration's kind; the violations name `body.<part>.…`. */
export function parsedForKind(part: 'credentials' | 'settings', kind: IntegrationKind, value: unknown): Record<string, unknown> {
  const schema = (part === 'credentials' ? CREDENTIAL_SCHEMAS : SETTINGS_SCHEMAS)[kind] as z.ZodType<Record<string, unknown>>;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InvalidRequestError(`The ${part} do not fit a ${kind} integration.`, parsed.error.issues.map((issue) => ({ path: ['body', part, ...issue.path.map(String)].join('.'), message: issue.message })));
}
