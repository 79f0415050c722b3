import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_HEADROOM, MINIMUM_ACCOUNT_CONCURRENCY, QUEUE_CONCURRENCY_TOTAL, QUEUE_MAX_CONCURRENCY } from '#shared/config/lambda-concurrency';
import { DASHBOARD_DOMAIN_CONTEXT } from '#lib/constructs/dashboard-domain';
import { CHECK_ACTIONS } from '#shared/preflight/finding';
import { INBOUND_MAIL_CONTEXT, INBOUND_MAIL_OPTIONS } from '#shared/preflight/inbound-mail-check';
import { LAMBDA_CONCURRENCY_QUOTA_CODE, quotaIncreaseCommand } from '#shared/preflight/lambda-concurrency-check';
import { PREFLIGHT_EXIT } from '#shared/preflight/preflight';
import { sandboxExitCommand } from '#shared/preflight/ses-sending-check';
import { codeBlocks } from '../../support/markdown-blocks';
import { ACCEPTED_LINT_WARNINGS } from '../../infra/cfn-lint';

const ROOT = join(import.meta.dirname, '../../..');
const doc = readFileSync(join(ROOT, 'docs/deploying.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Before you deploy'), doc.indexOf('\n## ', doc.indexOf('## Before you deploy') + 1));
const commands = codeBlocks('docs/deploying.md', section).flatMap(({ text }) => text.split('\n'));

describe('docs/deploying.md, "Before you deploy", against the code', () => {
  it('asks for the minimum Lambda quota the code computes, with the command the preflight prints', () => {
    expect(commands).toContain(quotaIncreaseCommand(MINIMUM_ACCOUNT_CONCURRENCY, 'eu-west-1'));
    expect(section).toContain(`to at least ${MINIMUM_ACCOUNT_CONCURRENCY} when the preflight`);
    expect(section).toContain(`at ${QUEUE_CONCURRENCY_TOTAL} together, and ${API_HEADROOM} is`);
    expect(section).toContain(`quota-code ${LAMBDA_CONCURRENCY_QUOTA_CODE}`);
  });

  it("leaves the SES sandbox with the preflight's command", () => {
    expect(commands).toContain(sandboxExitCommand('eu-west-1'));
  });

  it('names the IAM actions the preflight calls, and its exit codes', () => {
    for (const action of Object.values(CHECK_ACTIONS).filter(Boolean)) expect(section).toContain(`\`${action}\``);
    for (const [meaning, code] of [['nothing blocks', PREFLIGHT_EXIT.clear], ['a blocker', PREFLIGHT_EXIT.blocked], ['bad usage', PREFLIGHT_EXIT.usage], ['a check could not run', PREFLIGHT_EXIT.unchecked]] as const) {
      expect(section).toMatch(new RegExp(`\`${code}\` (no blocker found but )?${meaning}`));
    }
  });

  it('names context keys the code reads, with values it accepts', () => {
    expect(section).toContain(`-c ${INBOUND_MAIL_CONTEXT}=${INBOUND_MAIL_OPTIONS.join('|')}`);
    expect(commands.find((line) => line.startsWith('npx cdk deploy'))).toMatch(new RegExp(`-c ${DASHBOARD_DOMAIN_CONTEXT.domainName}=\\S+ -c ${DASHBOARD_DOMAIN_CONTEXT.certificateArn}=`));
  });

  it('runs the preflight through an npm script that exists', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

    expect(commands.some((line) => line.startsWith('npm run preflight'))).toBe(true);
    expect(scripts.preflight).toBe('tsx bin/preflight.ts');
  });
});

/** The text of one `## ` section of the guide. */
function sectionTitled(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/deploying.md has no section "${title}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('docs/deploying.md, "Lambda concurrency" and "Checked before it deploys", against the code', () => {
  it("lists each queue consumer's cap as shared/config/lambda-concurrency.ts has it, their total and the minimum quota", () => {
    const text = sectionTitled('Lambda concurrency');

    const rows = [...text.matchAll(/^\| `([a-z-]+)` \| (\d+) \|$/gm)].map(([, queue, cap]) => [queue, Number(cap)]);
    expect(Object.fromEntries(rows)).toEqual(QUEUE_MAX_CONCURRENCY);
    expect(text).toContain(`at most ${QUEUE_CONCURRENCY_TOTAL} concurrent executions`);
    expect(text).toContain(`must be at least ${MINIMUM_ACCOUNT_CONCURRENCY}**`);
  });

  it('documents each cfn-lint warning class the templates may keep, and no other', () => {
    const text = sectionTitled('Checked before it deploys');

    const documented = [...text.matchAll(/^\| `([EWI]\d{4})` \|/gm)].map(([, rule]) => rule);
    expect(documented.sort()).toEqual(Object.keys(ACCEPTED_LINT_WARNINGS).sort());
  });
});

