import { DecryptCommand, GenerateDataKeyWithoutPlaintextCommand } from '@aws-sdk/client-kms';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { kmsClient } from '#shared/adapters/crypto/kms-secret-cipher';
import { localKeyFromEnv } from '#shared/adapters/crypto/secret-cipher';
import { documentClient, tableName } from '#shared/adapters/dynamodb/client';
import { keys } from '#shared/adapters/dynamodb/keys';
import { isConditionFailure } from '#shared/adapters/dynamodb/transactions';
import { getOptionalStringFromEnv } from '#shared/config/env';
import { derivePageCursorKey } from '#shared/domain/page-cursor';

/** The environment of the page cursor key, named once (lib/constructs/gatehouse-function.ts sets it on AWS). */
export const PAGE_CURSOR_ENV = {
  /** The table's KMS key: it wraps the cursor secret stored in the table (AWS). */
  kmsKeyId: 'PAGE_CURSOR_KMS_KEY_ID',
} as const;

/** The encryption context of the wrapped secret: the functions' KMS grants hold for it only. */
export const PAGE_CURSOR_CONTEXT = { purpose: 'page-cursor' } as const;

/**
 * The deployment's secret behind page cursors, unwrapped. Stored once in the table as a 256-bit
 * data key from KMS (GenerateDataKeyWithoutPlaintext, so nobody ever held it in plaintext to write
 * it); the first function that needs it creates it, a concurrent second one reads the winner's.
 */
async function wrappedTableSecret(kmsKeyId: string): Promise<Uint8Array> {
  const key = keys.pageCursorSecret();
  const read = async () => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item?.wrapped as string | undefined;
  let wrapped = await read();
  if (wrapped === undefined) {
    const { CiphertextBlob } = await kmsClient().send(new GenerateDataKeyWithoutPlaintextCommand({ KeyId: kmsKeyId, KeySpec: 'AES_256', EncryptionContext: { ...PAGE_CURSOR_CONTEXT } }));
    if (!CiphertextBlob?.length) throw new Error('KMS GenerateDataKeyWithoutPlaintext returned no data key.');
    const item = { ...key, entity: 'page_cursor_secret', wrapped: Buffer.from(CiphertextBlob).toString('base64') };
    await documentClient()
      .send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }))
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    wrapped = await read();
    if (wrapped === undefined) throw new Error('The page cursor secret was not stored.');
  }
  const { Plaintext } = await kmsClient().send(new DecryptCommand({ KeyId: kmsKeyId, CiphertextBlob: Buffer.from(wrapped, 'base64'), EncryptionContext: { ...PAGE_CURSOR_CONTEXT } }));
  if (!Plaintext) throw new Error('KMS Decrypt returned no page cursor secret.');
  return Plaintext;
}

let pending: Promise<Buffer> | undefined;

/**
 * The key page cursors are signed with (HKDF of the deployment's secret, shared/domain/page-cursor.ts):
 * on AWS (PAGE_CURSOR_KMS_KEY_ID set) from the KMS-wrapped secret in the table, no plaintext key
 * in the environment; locally from GATEHOUSE_SECRET_KEY. Loaded once per process; a failed load is
 * tried again by the next request.
 */
export function pageCursorKey(): Promise<Buffer> {
  pending ??= (async () => {
    const kmsKeyId = getOptionalStringFromEnv(PAGE_CURSOR_ENV.kmsKeyId);
    const secret = kmsKeyId ? await wrappedTableSecret(kmsKeyId) : localKeyFromEnv();
    try {
      return derivePageCursorKey(secret);
    } finally {
      secret.fill(0);
    }
  })().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}
