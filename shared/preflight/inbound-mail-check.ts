import { SES_RECEIVING_REGIONS, sesReceivesMailIn } from '#shared/config/ses-receiving';
import type { Finding } from '#shared/preflight/finding';

/** The CDK context key choosing whether the stack receives mail (SES receiving) for mail triggers. */
export const INBOUND_MAIL_CONTEXT = 'gatehouse:inboundMail';
export const INBOUND_MAIL_OPTIONS = ['auto', 'on', 'off'] as const;
export type InboundMailOption = (typeof INBOUND_MAIL_OPTIONS)[number];

export function isInboundMailOption(value: string): value is InboundMailOption {
  return (INBOUND_MAIL_OPTIONS as readonly string[]).includes(value);
}

/**
 * Whether the chosen `gatehouse:inboundMail` option can deploy in `region`: SES receives mail in
 * some regions only (shared/config/ses-receiving.ts), and `on` is refused at synth elsewhere.
 * Where it receives, two steps stay with the operator after the deploy (docs/deploying.md).
 */
export function inboundMailFinding(region: string, option: InboundMailOption): Finding {
  const off = `-c ${INBOUND_MAIL_CONTEXT}=off`;
  if (!sesReceivesMailIn(region)) {
    if (option === 'off') return { check: 'inbound-mail', verdict: 'pass', summary: `Inbound mail is off (${off}); SES does not receive mail in ${region} anyway.` };
    const elsewhere = `a region where SES receives mail (${[...SES_RECEIVING_REGIONS].join(', ')}).`;
    if (option === 'on') {
      return {
        check: 'inbound-mail',
        verdict: 'blocker',
        summary: `SES does not receive mail in ${region}: synth refuses ${INBOUND_MAIL_CONTEXT}=on here.`,
        action: `Deploy with ${off} (mail triggers are then unavailable), or into ${elsewhere}`,
      };
    }
    return {
      check: 'inbound-mail',
      verdict: 'note',
      summary: `SES does not receive mail in ${region}: the stack leaves inbound mail out here, so mail triggers are unavailable.`,
      action: `Say so with ${off}, or deploy into ${elsewhere}`,
    };
  }
  if (option === 'off') return { check: 'inbound-mail', verdict: 'pass', summary: `Inbound mail is off (${off}): mail triggers are unavailable.` };
  return {
    check: 'inbound-mail',
    verdict: 'note',
    summary: `SES receives mail in ${region}: the stack creates the receipt rule set for mail triggers.`,
    action: `Verify the inbound domain in SES; after the deploy, point its MX record at SES and activate the rule set (docs/deploying.md, "Before you deploy", steps 5, 7 and 8). Or deploy with ${off}.`,
  };
}
