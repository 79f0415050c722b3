import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createBrotliDecompress } from 'node:zlib';
import { median } from '../stats';

/**
 * What a cold Lambda environment spends before its first launch: @sparticuz/chromium inflates its
 * Brotli files into an empty /tmp (the binary, fonts, SwiftShader, and Amazon Linux 2023's
 * libraries under Node 22). The real /tmp/chromium is never touched: each file is decompressed
 * into a scratch directory with the package's chunk size, one after the other, as ≈ 1 vCPU would.
 */

const BIN = fileURLToPath(new URL('../../node_modules/@sparticuz/chromium/bin/', import.meta.url));
/** The files `executablePath()` inflates on Lambda's Node 22 (al2023 only on Amazon Linux 2023). */
const FILES = ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br'];

export interface InflatedFile {
  file: string;
  compressedBytes: number;
  inflatedBytes: number;
  /** Median of the rounds. */
  ms: number;
}

export interface ChromiumInflation {
  rounds: number;
  files: InflatedFile[];
  /** The files one after the other: the estimate of a cold environment's inflation. */
  totalMs: number;
}

async function inflateOnce(source: string, target: string): Promise<number> {
  const started = performance.now();
  await pipeline(createReadStream(source, { highWaterMark: 2 ** 22 }), createBrotliDecompress({ chunkSize: 2 ** 21 }), createWriteStream(target));
  return performance.now() - started;
}

/** Times each file's decompression `rounds` times; the scratch copies are removed. */
export async function measureChromiumInflation(rounds: number): Promise<ChromiumInflation> {
  const scratch = mkdtempSync(join(tmpdir(), 'gatehouse-bench-inflate-'));
  try {
    const files: InflatedFile[] = [];
    for (const file of FILES) {
      const source = join(BIN, file);
      const target = join(scratch, file.replace(/\.br$/, ''));
      const times: number[] = [];
      for (let round = 0; round < rounds; round++) {
        times.push(await inflateOnce(source, target));
        if (round < rounds - 1) rmSync(target);
      }
      files.push({ file, compressedBytes: statSync(source).size, inflatedBytes: statSync(target).size, ms: median(times) });
      rmSync(target);
    }
    return { rounds, files, totalMs: files.reduce((sum, file) => sum + file.ms, 0) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
