import { randomBytes } from 'node:crypto';

/** The domain of mail triggers' addresses: the stack's parameter on AWS (SES receiving), `inbound.localhost` locally. */
export const INBOUND_MAIL_DOMAIN_ENV = 'GATEHOUSE_INBOUND_MAIL_DOMAIN';
export const LOCAL_INBOUND_MAIL_DOMAIN = 'inbound.localhost';

/**
 * `off` when the deployment has no inbound mail (the stack option `gatehouse:inboundMail`, off where
 * Amazon SES does not receive mail): mail triggers are then refused (409 inbound_mail_unavailable).
 */
export const INBOUND_MAIL_SWITCH_ENV = 'GATEHOUSE_INBOUND_MAIL';

/** Whether this deployment receives mail for mail triggers. */
export function inboundMailAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[INBOUND_MAIL_SWITCH_ENV]?.trim().toLowerCase() !== 'off';
}

export function inboundMailDomain(): string {
  return (process.env[INBOUND_MAIL_DOMAIN_ENV] ?? LOCAL_INBOUND_MAIL_DOMAIN).toLowerCase();
}

/**
 * The largest inbound mail taken, raw bytes (docs/triggers.md): the local SMTP listener answers
 * 552 past it, and on AWS the receiver records a failed run for each trigger instead of reading it.
 */
export const MAX_INBOUND_MAIL_BYTES = 10 * 1024 * 1024;

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/**
 * A fresh address for a mail trigger: `t-` and 20 random characters (100 bits), so an address
 * cannot be guessed; whoever knows it can start the trigger's tasks, as with any forwarding rule.
 */
export function newInboundAddress(): string {
  const bytes = randomBytes(20);
  const local = Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `t-${local}@${inboundMailDomain()}`;
}
