import { getOptionalStringFromEnv, getStringFromEnv, once } from '#shared/config/env';
import type { Mailer } from '#shared/domain/mailer';
import { OutboxMailer } from './outbox-mailer';
import { SesMailer } from './ses-mailer';

export const mailerBackends = ['ses', 'outbox'] as const;
export type MailerBackend = (typeof mailerBackends)[number];

/** A mailer with the deployment's sender: callers put `from` into every `OutboundEmail`. */
export interface ConfiguredMailer extends Mailer {
  readonly backend: MailerBackend;
  /** `MAIL_FROM`, e.g. `Gatehouse <outreach@example.com>`. */
  readonly from: string;
}

/**
 * Chooses the mailer from the environment: `MAILER_BACKEND` = `ses` | `outbox`, `MAIL_FROM`
 * (required), and for `outbox` `GATEHOUSE_OUTBOX_DIR`. Misconfiguration throws here, naming the
 * variable, instead of surfacing at the first approved send.
 */
export function mailerFromEnv(): ConfiguredMailer {
  const backend = getOptionalStringFromEnv('MAILER_BACKEND');
  if (!isBackend(backend)) {
    throw new Error(`Environment variable MAILER_BACKEND must be one of ${mailerBackends.join(', ')}; got '${backend ?? ''}'.`);
  }
  const from = getStringFromEnv('MAIL_FROM');
  if (/[\r\n]/.test(from) || !from.includes('@')) {
    throw new Error('Environment variable MAIL_FROM must be one sender address, e.g. "Gatehouse <outreach@example.com>".');
  }
  const delegate: Mailer = backend === 'ses' ? new SesMailer() : new OutboxMailer(getStringFromEnv('GATEHOUSE_OUTBOX_DIR'));
  return { backend, from, send: (message) => delegate.send(message) };
}

/** The process's mailer, chosen on first use. */
export const mailer = once(mailerFromEnv);

function isBackend(value: string | undefined): value is MailerBackend {
  return (mailerBackends as readonly (string | undefined)[]).includes(value);
}
