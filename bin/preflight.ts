#!/usr/bin/env node
/**
 * Checks an AWS account before Gatehouse is deployed into it, with read-only calls and the usual
 * credentials chain, and says what to request first (docs/deploying.md, "Before you deploy").
 *
 *   npm run preflight [-- --region eu-west-1] [--profile p] [-c gatehouse:inboundMail=auto|on|off] [--json]
 *
 * Exit code: 0 nothing blocks the deploy (requests may remain), 1 a blocker, 2 bad usage,
 * 3 no blocker found but a check could not run (the credentials lack its IAM action).
 */
import { parseArgs } from 'node:util';
import { readAccount, resolveRegion } from '#shared/adapters/preflight/account-readings';
import { INBOUND_MAIL_CONTEXT, isInboundMailOption, type InboundMailOption } from '#shared/preflight/inbound-mail-check';
import { PREFLIGHT_EXIT, preflightReport } from '#shared/preflight/preflight';
import { reportText } from '#shared/preflight/report-text';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const usage = `usage: npm run preflight -- [--region REGION] [--profile PROFILE] [-c ${INBOUND_MAIL_CONTEXT}=auto|on|off] [--json]`;

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(PREFLIGHT_EXIT.usage);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      region: { type: 'string' },
      profile: { type: 'string' },
      // The same context the deploy is given (`cdk deploy -c ...`): only the keys the checks read.
      context: { type: 'string', short: 'c', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (error) {
  fail((error as Error).message);
}
const { values } = parsed;
if (values.help) {
  console.log(usage);
  process.exit(PREFLIGHT_EXIT.clear);
}

let inboundMail: InboundMailOption = 'auto';
for (const entry of values.context) {
  const [key, value] = [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];
  if (key !== INBOUND_MAIL_CONTEXT) fail(`Unknown context ${entry}: the preflight reads ${INBOUND_MAIL_CONTEXT} only.`);
  if (!isInboundMailOption(value)) fail(`${INBOUND_MAIL_CONTEXT} must be auto, on or off, not '${value}'.`);
  inboundMail = value;
}
if (values.profile) process.env.AWS_PROFILE = values.profile;

const region = await resolveRegion(values.region);
const report = preflightReport(await readAccount(region), { inboundMail });
console.log(values.json ? JSON.stringify(report, null, 2) : reportText(report));
process.exitCode = report.exitCode;
