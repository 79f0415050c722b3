import * as z from '#shared/zod';
import type { IntegrationKind } from '#shared/domain/integration';

/**
 * The tools agents call through the tool proxy. A read tool runs at once; a tool that acts on the
 * outside world (`acts`) runs only as an approved action, once per approval.
 */
export interface ToolDefinition {
  integration: IntegrationKind;
  acts: boolean;
  description: string;
  args: z.ZodType<Record<string, unknown>>;
}

const repository = z.string().check(z.regex(/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/, 'must be owner/name'));
const ref = z.optional(z.string().check(z.minLength(1), z.maxLength(255)));
const path = z.string().check(z.minLength(1), z.maxLength(1024), z.refine((value) => !value.split('/').includes('..'), 'must not contain ..'));
const oneLine = (max: number) => z.string().check(z.minLength(1), z.maxLength(max), z.refine((value) => !/[\r\n]/.test(value), 'must be one line'));

export const TOOLS: Record<string, ToolDefinition> = {
  'github.list_files': { integration: 'github', acts: false, description: 'Lists the files of a repository (at most 2,000).', args: z.strictObject({ repository, ref }) },
  'github.read_file': { integration: 'github', acts: false, description: 'Reads one file of a repository (at most 200,000 bytes).', args: z.strictObject({ repository, path, ref }) },
  'github.create_issue': {
    integration: 'github',
    acts: true,
    description: 'Opens an issue in a repository.',
    args: z.strictObject({ repository, title: oneLine(256), body: z.string().check(z.maxLength(60_000)), labels: z.optional(z.array(oneLine(50)).check(z.maxLength(10))) }),
  },
  'slack.post_message': { integration: 'slack', acts: true, description: 'Posts a message in a channel.', args: z.strictObject({ channel: oneLine(80), text: z.string().check(z.minLength(1), z.maxLength(40_000)) }) },
  'mail.send': { integration: 'email', acts: true, description: 'Sends one email.', args: z.strictObject({ to: oneLine(254), subject: oneLine(998), body: z.string().check(z.maxLength(100_000)) }) },
};

export function toolNamed(name: string): ToolDefinition | undefined {
  return Object.hasOwn(TOOLS, name) ? TOOLS[name] : undefined;
}

/** A tool call's arguments checked against the tool's schema; the violations as `args.<path>: message`. */
export function toolArgsViolations(tool: ToolDefinition, args: unknown): string[] {
  const parsed = tool.args.safeParse(args);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `args${issue.path.map((part) => `.${String(part)}`).join('')}: ${issue.message}`);
}

/** What a finished tool call reports, in its record and its `tool_call.executed` event (never its arguments). */
export interface ToolCallRecord {
  tool_call_id: string;
  task_id: string;
  step: number;
  tool: string;
  integration_id: string | null;
  outcome: 'succeeded' | 'failed';
  duration_ms: number;
  created_at: string;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}
