import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * Artifact data as the table holds it. DynamoDB bills writes per KB of item, twice inside a
 * transaction (artifacts are written in the agent step's transaction), and agent reports are
 * verbose JSON that gzip shrinks three to five times; so data of a KB or more is stored as one
 * gzipped binary attribute, smaller data as the map itself (it would not get cheaper).
 */
const COMPRESS_FROM_BYTES = 1024;

export function storedArtifactData(data: Record<string, unknown>): { data: Record<string, unknown> } | { data_gz: Uint8Array } {
  const json = JSON.stringify(data);
  if (Buffer.byteLength(json) < COMPRESS_FROM_BYTES) return { data };
  return { data_gz: gzipSync(json) };
}

/** The artifact's data from an item written by either form of `storedArtifactData`. */
export function artifactDataOf(item: Record<string, unknown>): Record<string, unknown> {
  if (item.data_gz instanceof Uint8Array) return JSON.parse(gunzipSync(item.data_gz).toString('utf8')) as Record<string, unknown>;
  return (item.data ?? {}) as Record<string, unknown>;
}
