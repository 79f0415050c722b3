import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getOptionalStringFromEnv, getStringFromEnv, once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** Where SES's receipt rule puts each message (`<prefix><SES message id>`), and the local runtime's directory. */
export const INBOUND_MAIL_ENV = { bucket: 'INBOUND_MAIL_BUCKET', prefix: 'INBOUND_MAIL_PREFIX', dir: 'GATEHOUSE_INBOUND_MAIL_DIR' } as const;

const s3Client = once(() => traced(withoutSdkLogger(new S3Client({ maxAttempts: 3 }))));

/** The raw message SES received (S3 on AWS, the SMTP listener's directory locally). */
export async function readInboundMessage(messageId: string): Promise<Buffer> {
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(messageId)) throw new Error(`Not an inbound message id: ${messageId}`);
  const dir = getOptionalStringFromEnv(INBOUND_MAIL_ENV.dir);
  if (dir) return readFile(join(dir, `${messageId}.eml`));
  const answer = await s3Client().send(new GetObjectCommand({ Bucket: getStringFromEnv(INBOUND_MAIL_ENV.bucket), Key: `${getOptionalStringFromEnv(INBOUND_MAIL_ENV.prefix) ?? ''}${messageId}` }));
  if (!answer.Body) throw new Error(`Inbound message ${messageId} has no body.`);
  return Buffer.from(await answer.Body.transformToByteArray());
}
