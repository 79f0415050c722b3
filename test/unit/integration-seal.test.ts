import { describe, expect, it } from 'vitest';
import { legacySigningSecret, openSealed, sealedPlaintexts } from '#shared/domain/integration-seal';

const github = (apiUrl: string) => ({ kind: 'github' as const, settings: { api_url: apiUrl } });

describe('sealed integration credentials', () => {
  it('open for the URL they were sealed with, and for no other', () => {
    const sealed = sealedPlaintexts('github', { token: 'ghp_x' }, { api_url: 'https://ghe.acme.example/api/v3' }).credentials;

    expect(openSealed(github('https://ghe.acme.example/api/v3'), sealed)).toEqual({ ok: true, credentials: { token: 'ghp_x' } });
    expect(openSealed(github('http://127.0.0.1:9/'), sealed)).toEqual({ ok: false, verifiedUrl: 'https://ghe.acme.example/api/v3' });
    expect(openSealed(github('https://ghe.acme.example/api/v3/'), sealed)).toMatchObject({ ok: false });
  });

  it('count legacy credentials (no URL sealed) as verified for the provider\'s public API only', () => {
    const legacy = JSON.stringify({ token: 'ghp_x' });

    expect(openSealed(github('https://api.github.com'), legacy)).toEqual({ ok: true, credentials: { token: 'ghp_x' } });
    expect(openSealed(github('https://ghe.acme.example/api/v3'), legacy)).toEqual({ ok: false, verifiedUrl: 'https://api.github.com' });
    expect(openSealed({ kind: 'slack', settings: { api_url: 'https://slack.com/api' } }, JSON.stringify({ bot_token: 'xoxb', signing_secret: 'ab' }))).toMatchObject({ ok: true });
  });

  it('seal mail credentials with no URL: their server is part of them', () => {
    const smtp = { host: 'smtp.acme.example', port: 587, secure: false };
    const sealed = sealedPlaintexts('email', smtp, { from: 'a@acme.example' }).credentials;

    expect(openSealed({ kind: 'email', settings: { from: 'other@acme.example' } }, sealed)).toEqual({ ok: true, credentials: smtp });
  });

  it('seal Slack\'s signing secret apart from the bot token', () => {
    const plaintexts = sealedPlaintexts('slack', { bot_token: 'xoxb-1', signing_secret: 'abcdef0123456789' }, { api_url: 'https://slack.com/api' });

    expect(plaintexts.signingSecret).toBe('abcdef0123456789');
    expect(plaintexts.credentials).not.toContain('abcdef0123456789');
    expect(legacySigningSecret(plaintexts.credentials)).toBe('');
    expect(legacySigningSecret(JSON.stringify({ bot_token: 'xoxb-1', signing_secret: 'abcdef0123456789' }))).toBe('abcdef0123456789');
  });
});
