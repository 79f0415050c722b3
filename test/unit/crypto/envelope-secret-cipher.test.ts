import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvelopeSecretCipher } from '#shared/adapters/crypto/envelope-secret-cipher';
import { SecretDecryptionError } from '#shared/domain/secret-cipher';
import { startKmsServer } from '../../support/providers/kms-server';

const KEY = 'arn:aws:kms:eu-west-1:123456789012:key/integrations';
const OTHER = 'arn:aws:kms:eu-west-1:123456789012:key/other';
const context = { tenant_id: 'ten_1', integration_id: 'int_1', purpose: 'integration-credentials' };
const secret = JSON.stringify({ token: 'ghp_envelopeSecret0123456789' });

let kms: Awaited<ReturnType<typeof startKmsServer>>;
let client: KMSClient;

describe('envelope encryption of integration credentials, with the real KMS client on a loopback KMS', () => {
  beforeAll(async () => {
    kms = await startKmsServer([KEY, OTHER]);
    client = new KMSClient({ endpoint: kms.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
  });

  afterAll(async () => {
    client.destroy();
    await kms.close();
  });

  it('seals with a fresh data key per secret and opens with the same context, never sending the secret to KMS', async () => {
    const cipher = new EnvelopeSecretCipher(KEY, () => client);
    const first = await cipher.encrypt(secret, context);
    const second = await cipher.encrypt(secret, context);
    expect(first).toMatch(/^kenv1\./);
    expect(first.split('.')[1]).not.toBe(second.split('.')[1]);
    expect(await cipher.decrypt(first, { ...context })).toBe(secret);
    expect(await cipher.decrypt(second, { purpose: context.purpose, integration_id: context.integration_id, tenant_id: context.tenant_id })).toBe(secret);
    expect(kms.state.requests.some((request) => request.body.includes('ghp_envelopeSecret'))).toBe(false);
    expect(kms.state.requests.map((request) => request.target)).toContain('TrentService.GenerateDataKey');
  });

  it('refuses another context, a tampered blob and another key as SecretDecryptionError', async () => {
    const cipher = new EnvelopeSecretCipher(KEY, () => client);
    const sealed = await cipher.encrypt(secret, context);
    await expect(cipher.decrypt(sealed, { ...context, tenant_id: 'ten_2' })).rejects.toBeInstanceOf(SecretDecryptionError);
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, -1), `${parts.at(-1)!.slice(0, -2)}AA`].join('.');
    await expect(cipher.decrypt(tampered, context)).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(new EnvelopeSecretCipher(OTHER, () => client).decrypt(sealed, context)).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(cipher.decrypt('lgcm1.a.b.c', context)).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('lets an outage propagate: throttling is not a bad secret', async () => {
    const cipher = new EnvelopeSecretCipher(KEY, () => client);
    const sealed = await cipher.encrypt(secret, context);
    kms.state.throttleNext = 1;
    await expect(cipher.decrypt(sealed, context)).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(await cipher.decrypt(sealed, context)).toBe(secret);
  });
});
