import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { integrationCipher } from '#shared/adapters/crypto/integration-cipher';
import { integrationRepository } from '#shared/adapters/dynamodb/integration-repository';
import { credentialContext } from '#shared/domain/integration';
import { connectIntegration } from '#shared/services/integration-admin';
import { answerSlackRequest } from '#shared/services/slack-requests';
import { provisionForTest, uniqueTenant } from '../support/provisioned';
import { startSlackApiServer } from '../support/providers/slack-api-server';
import { clickBody, signedHeaders, SLACK } from '../support/slack-requests';

// Issue 25, finding 8: Slack callbacks decrypted the credentials (bot token included) before
// checking the signature, so any forged request made the proxy open them (a KMS Decrypt on AWS).
const BOT_TOKEN = 'xoxb-signing-secret-test-bot-token';
const SIGNING_SECRET = 'fedcba9876543210fedcba9876543210';
const FORGED_SECRET = '0000000000000000deadbeefdeadbeef';

let slack: Awaited<ReturnType<typeof startSlackApiServer>>;
/** The real cipher adapter, spied on (once provisioned): every decrypt runs, and its context says what it opened. */
let decrypt: ReturnType<typeof spyOnDecrypt>;
const spyOnDecrypt = () => vi.spyOn(integrationCipher(), 'decrypt');
/** What a decrypt opened, by its context: the signing secret's carries `part`, the credentials' does not. */
const what = (context: Record<string, string>) => context.part ?? 'credentials';
const opened = (part: 'slack-signing-secret' | 'credentials') => decrypt.mock.calls.filter(([, context]) => what(context) === part).length;

function slackRequest(integrationId: string, secret: string, body: string, endpoint: 'interactions' | 'events' = 'interactions') {
  const headers = Object.fromEntries(Object.entries(signedHeaders(secret, body, endpoint === 'interactions' ? 'application/x-www-form-urlencoded' : 'application/json')).map(([name, value]) => [name.toLowerCase(), value]));
  return answerSlackRequest({ action: 'slack_request', integration_id: integrationId, endpoint, headers, body });
}

async function connected() {
  const tenant = uniqueTenant();
  return connectIntegration(tenant, { kind: 'slack', name: 'Slack', credentials: { bot_token: BOT_TOKEN, signing_secret: SIGNING_SECRET }, settings: { api_url: slack.url, approvals_channel: SLACK.channel } });
}

describe('Slack callbacks check the signature before opening anything else', () => {
  beforeAll(async () => {
    await provisionForTest('slack-signing-secret');
    decrypt = spyOnDecrypt();
    slack = await startSlackApiServer({ tokens: { [BOT_TOKEN]: { team_id: SLACK.team_id, team: SLACK.team, user_id: SLACK.bot_user_id, user: 'gatehouse', bot_id: SLACK.bot_id } }, channels: { [SLACK.channel]: { name: 'approvals' } } });
  });

  afterAll(async () => {
    await slack?.close();
  });

  beforeEach(() => {
    decrypt.mockClear();
  });

  it('stores the signing secret sealed apart from the bot token', async () => {
    const integration = await connected();

    const stored = (await integrationRepository.get(integration.tenant_id, integration.integration_id))!;

    expect(stored.signing_secret_ciphertext).toEqual(expect.any(String));
    expect(await integrationCipher().decrypt(stored.credentials_ciphertext, credentialContext(stored))).not.toContain(SIGNING_SECRET);
  });

  it('never decrypts the bot token for a forged callback', async () => {
    const integration = await connected();
    decrypt.mockClear();

    const answer = await slackRequest(integration.integration_id, FORGED_SECRET, clickBody('approve', 'apr_00000000000000000000000000'));

    expect(answer).toMatchObject({ refused: 'unauthorized' });
    expect(opened('slack-signing-secret')).toBe(1);
    expect(opened('credentials')).toBe(0);
  });

  it('answers Slack\'s url_verification with the signing secret alone', async () => {
    const integration = await connected();
    decrypt.mockClear();

    const answer = await slackRequest(integration.integration_id, SIGNING_SECRET, JSON.stringify({ type: 'url_verification', challenge: 'c-123', token: 'unused' }), 'events');

    expect(answer).toEqual({ status: 200, body: JSON.stringify({ challenge: 'c-123' }) });
    expect(opened('credentials')).toBe(0);
  });

  it('opens the bot token for a signed click, after the signature passed', async () => {
    const integration = await connected();
    decrypt.mockClear();

    const answer = await slackRequest(integration.integration_id, SIGNING_SECRET, clickBody('approve', 'apr_00000000000000000000000000'));

    expect(answer).toMatchObject({ status: 200 });
    expect(decrypt.mock.calls.map(([, context]) => what(context))).toEqual(['slack-signing-secret', 'credentials']);
  });

  it('still verifies a record sealed before the split (signing secret inside the credentials)', async () => {
    const integration = await connected();
    // As such a record stands: one ciphertext of the plain credentials, no signing_secret_ciphertext.
    const legacy = await integrationCipher().encrypt(JSON.stringify({ bot_token: BOT_TOKEN, signing_secret: SIGNING_SECRET }), credentialContext(integration));
    await documentClient().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.integration(integration.tenant_id, integration.integration_id), UpdateExpression: 'SET credentials_ciphertext = :legacy REMOVE signing_secret_ciphertext', ExpressionAttributeValues: { ':legacy': legacy } }),
    );
    expect((await integrationRepository.get(integration.tenant_id, integration.integration_id))!.signing_secret_ciphertext).toBeUndefined();

    const forged = await slackRequest(integration.integration_id, FORGED_SECRET, clickBody('approve', 'apr_00000000000000000000000000'));
    const signed = await slackRequest(integration.integration_id, SIGNING_SECRET, JSON.stringify({ type: 'url_verification', challenge: 'c-9', token: 'unused' }), 'events');

    expect(forged).toMatchObject({ refused: 'unauthorized' });
    expect(signed).toMatchObject({ status: 200 });
  });
});
