import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { readFile, stat } from 'node:fs/promises';
import { getOptionalStringFromEnv, getStringFromEnv, once } from '#shared/config/env';
import { MAX_INBOUND_MAIL_BYTES } from '#shared/config/inbound-mail';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** Where SES's receipt rule puts each message (`<prefix><SES message id>`), and the local runtime's directory. */
export const INBOUND_MAIL_ENV = { bucket: 'INBOUND_MAIL_BUCKET', prefix: 'INBOUND_MAIL_PREFIX', dir: 'GATEHOUSE_INBOUND_MAIL_DIR' } as const;

const s3Client = once(() => traced(withoutSdkLogger(new S3Client({ maxAttempts: 3 }))));

/** A stored message over MAX_INBOUND_MAIL_BYTES: not read, and not worth a retry. */
export class InboundMailTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`The message is ${bytes} bytes; inbound mail is limited to ${MAX_INBOUND_MAIL_BYTES} bytes.`);
    this.name = 'InboundMailTooLargeError';
  }
}

/**
 * The raw message SES received (S3 on AWS, the SMTP listener's directory locally); its size is
 * checked before its bytes are read (SES stores up to 40 MB), so an oversized one is never loaded.
 */
export async function readInboundMessage(messageId: string): Promise<Buffer> {
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(messageId)) throw new Error(`Not an inbound message id: ${messageId}`);
  const dir = getOptionalStringFromEnv(INBOUND_MAIL_ENV.dir);
  if (dir) {
    const path = join(dir, `${messageId}.eml`);
    const { size } = await stat(path);
    if (size > MAX_INBOUND_MAIL_BYTES) throw new InboundMailTooLargeError(size);
    return readFile(path);
  }
  const answer = await s3Client().send(new GetObjectCommand({ Bucket: getStringFromEnv(INBOUND_MAIL_ENV.bucket), Key: `${getOptionalStringFromEnv(INBOUND_MAIL_ENV.prefix) ?? ''}${messageId}` }));
  if (!answer.Body) throw new Error(`Inbound message ${messageId} has no body.`);
  if ((answer.ContentLength ?? 0) > MAX_INBOUND_MAIL_BYTES) {
    // Close the connection instead of downloading what will not be read.
    (answer.Body as { destroy?: () => void }).destroy?.();
    throw new InboundMailTooLargeError(answer.ContentLength!);
  }
  const bytes = Buffer.from(await answer.Body.transformToByteArray());
  if (bytes.length > MAX_INBOUND_MAIL_BYTES) throw new InboundMailTooLargeError(bytes.length);
  return bytes;
}
