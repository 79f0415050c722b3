import { PutObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { getStringFromEnv, once } from '#shared/config/env';
import { withoutSdkLogger } from '#shared/adapters/sdk-logging';
import { traced } from '#shared/observability/tracer';

/** The one S3 client of a process; `AWS_ENDPOINT_URL_S3` points it at the local emulator. */
const s3Client = once(() => traced(withoutSdkLogger(new S3Client({ maxAttempts: 3, forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true' }))));

/** Presigned links live long enough to start a download, no longer. */
export const EXPORT_LINK_SECONDS = 300;

/** Stores an export too large for a Lambda response and returns a short-lived download URL. */
export async function storeExport(key: string, body: Buffer, contentType: string, fileName: string): Promise<string> {
  const bucket = getStringFromEnv('EXPORT_BUCKET');
  await s3Client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, ContentDisposition: `attachment; filename="${fileName}"` }));
  return getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: bucket, Key: key, ResponseContentDisposition: `attachment; filename="${fileName}"` }), { expiresIn: EXPORT_LINK_SECONDS });
}
