import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.ts';

/**
 * Writes the SARIF log to `path`, making its folders. Written beside it first and renamed, so
 * that an upload step that runs anyway (`if: always()`) never reads half a file.
 */
export async function writeSarif(path: string, log: Uint8Array): Promise<string> {
  const target = resolve(path);
  const partial = `${target}.partial`;
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(partial, log);
    await rename(partial, target);
  } catch (error) {
    throw new UsageError(`Cannot write the SARIF file ${path}: ${error instanceof Error ? error.message : String(error)}`, null);
  }
  return target;
}
