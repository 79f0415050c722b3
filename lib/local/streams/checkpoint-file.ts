import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `{ [shardId]: lastSequenceNumber }` of the records done, kept in a file between runs (without a
 * file, in memory only: every start is fresh). Written as a temporary file renamed over the old
 * one, so a crash never leaves half a file.
 */
export class CheckpointFile {
  private positions: Record<string, string> = {};
  private loaded = false;

  constructor(private readonly file: string | undefined) {}

  /** Reads the file once; later calls keep what is in memory. */
  async load(): Promise<void> {
    if (this.loaded) return;
    this.positions = await readCheckpoint(this.file);
    this.loaded = true;
  }

  /** The last sequence number done in a shard, if any. */
  get(shardId: string): string | undefined {
    return this.positions[shardId];
  }

  /** Records `sequenceNumber` as the last one done in the shard, and persists it. */
  async advance(shardId: string, sequenceNumber: string): Promise<void> {
    this.positions[shardId] = sequenceNumber;
    if (!this.file) return;
    await mkdir(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(this.positions, null, 2));
    await rename(temporary, this.file);
  }
}

async function readCheckpoint(file: string | undefined): Promise<Record<string, string>> {
  if (!file) return {};
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((value) => typeof value === 'string')) {
    throw new Error(`Stream checkpoint ${file} is not a { shardId: sequenceNumber } object.`);
  }
  return { ...(parsed as Record<string, string>) };
}
