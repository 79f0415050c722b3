import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailerFromEnv } from '#shared/adapters/mail/mailer';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('mailerFromEnv', () => {
  it('chooses the outbox backend, with the sender from MAIL_FROM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gatehouse-mailer-'));
    vi.stubEnv('MAILER_BACKEND', 'outbox');
    vi.stubEnv('MAIL_FROM', 'Gatehouse <outreach@gatehouse.example>');
    vi.stubEnv('GATEHOUSE_OUTBOX_DIR', dir);
    try {
      const mailer = mailerFromEnv();
      await mailer.send({ from: mailer.from, to: 'a@b.example', subject: 'S', body: 'B', idempotencyKey: 'apr_env' });

      expect(mailer.backend).toBe('outbox');
      expect(mailer.from).toBe('Gatehouse <outreach@gatehouse.example>');
      expect(await readdir(dir)).toEqual(['apr_env.eml']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('chooses the SES backend', () => {
    vi.stubEnv('MAILER_BACKEND', 'ses');
    vi.stubEnv('MAIL_FROM', 'outreach@gatehouse.example');

    expect(mailerFromEnv().backend).toBe('ses');
  });

  it('names the variable that is missing or wrong', () => {
    vi.stubEnv('MAIL_FROM', 'outreach@gatehouse.example');
    vi.stubEnv('MAILER_BACKEND', '');
    expect(() => mailerFromEnv()).toThrow(/MAILER_BACKEND must be one of ses, outbox/);
    vi.stubEnv('MAILER_BACKEND', 'smtp');
    expect(() => mailerFromEnv()).toThrow(/MAILER_BACKEND must be one of ses, outbox; got 'smtp'/);

    vi.stubEnv('MAILER_BACKEND', 'ses');
    vi.stubEnv('MAIL_FROM', '');
    expect(() => mailerFromEnv()).toThrow(/MAIL_FROM/);
    vi.stubEnv('MAIL_FROM', 'a@b.example\nBcc: c@d.example');
    expect(() => mailerFromEnv()).toThrow(/MAIL_FROM must be one sender address/);

    vi.stubEnv('MAILER_BACKEND', 'outbox');
    vi.stubEnv('MAIL_FROM', 'outreach@gatehouse.example');
    vi.stubEnv('GATEHOUSE_OUTBOX_DIR', '');
    expect(() => mailerFromEnv()).toThrow(/GATEHOUSE_OUTBOX_DIR/);
  });
});
