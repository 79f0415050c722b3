/**
 * Inbound mail (SES receiving, for mail triggers) as a stack option: CDK context
 * `gatehouse:inboundMail` = `auto` (default) | `on` | `off`, e.g. `npx cdk deploy -c gatehouse:inboundMail=off`.
 *
 * - `auto`: on where Amazon SES receives mail (shared/config/ses-receiving.ts), off elsewhere; an
 *   environment-agnostic synth (no region known) is on, as CloudFormation will decide at deploy.
 * - `on`: always; refused at synth in a region where SES does not receive mail, since
 *   `AWS::SES::ReceiptRuleSet` does not exist there and the deploy would fail half-way.
 * - `off`: no SES receipt resources; creating or changing a mail trigger answers 409
 *   `inbound_mail_unavailable`, and the dashboard says inbound mail is not available.
 */
import { Stack, Token } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { SES_RECEIVING_REGIONS, sesReceivesMailIn } from '#shared/config/ses-receiving';
// The key and its values, as `npm run preflight` reads them too.
import { INBOUND_MAIL_CONTEXT, isInboundMailOption, type InboundMailOption } from '#shared/preflight/inbound-mail-check';

export { INBOUND_MAIL_CONTEXT };

function setting(scope: IConstruct): InboundMailOption {
  const value: unknown = scope.node.tryGetContext(INBOUND_MAIL_CONTEXT) ?? 'auto';
  if (typeof value !== 'string' || !isInboundMailOption(value)) throw new Error(`Context ${INBOUND_MAIL_CONTEXT} is ${JSON.stringify(value)}; it takes auto (the default), on or off.`);
  return value;
}

/** Whether the stack of `scope` receives mail for mail triggers (throws for `on` where SES cannot). */
export function inboundMailEnabled(scope: IConstruct): boolean {
  const chosen = setting(scope);
  if (chosen === 'off') return false;
  const region = Stack.of(scope).region;
  if (Token.isUnresolved(region)) return true;
  if (sesReceivesMailIn(region)) return true;
  if (chosen === 'auto') return false;
  throw new Error(
    `${INBOUND_MAIL_CONTEXT} is on, but Amazon SES does not receive mail in ${region}, so mail triggers cannot work there. ` +
      `Deploy with -c ${INBOUND_MAIL_CONTEXT}=auto (or off) to leave inbound mail out in this region, or in a region that receives mail: ${[...SES_RECEIVING_REGIONS].join(', ')}.`,
  );
}
